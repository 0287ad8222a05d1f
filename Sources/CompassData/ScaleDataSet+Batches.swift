import Postgres

/// The statements of one batch of users `[low, high)`. Only integers we compute are spliced in as text.
extension ScaleDataSet {
    /// Salt for choice `n` (every random choice has its own).
    private func salt(_ n: Int) -> String { String(seed * 1000 + n) }
    private var s: String { String(seed) }
    private func uid(_ kind: Int, _ a: String, _ b: String = "0") -> String {
        "pg_temp.uid(\(kind), \(seed), \(a), \(b))"
    }
    private func h(_ a: String, _ b: String, _ n: Int) -> String { "pg_temp.h(\(a), \(b), \(salt(n)))" }
    private func pick(_ options: [String], _ a: String, _ b: String, _ n: Int) -> String {
        "pg_temp.pick(\(Self.array(options)), \(a), \(b), \(salt(n)))"
    }
    private var athlete: String { "(i / 4) % 10 <> 9 AND i % 4 >= 2" }
    private func ago(_ a: String, _ b: String, _ n: Int, seconds: Int) -> String {
        "now() - (\(h(a, b, n)) % \(seconds)) * interval '1 second'"
    }
    private var heavy: String { "\(h("i", "0", 4)) % 5 = 0" }
    private func users(_ low: Int, _ high: Int) -> String { "generate_series(\(low)::bigint, \(high - 1)::bigint) AS i" }
    private func families(_ low: Int, _ high: Int) -> String {
        "generate_series(\(low / 4)::bigint, \((high + 3) / 4 - 1)::bigint) AS f"
    }
    private func q(_ sql: String) -> PostgresQuery { PostgresQuery(unsafeSQL: sql) }

    /// Accounts, families, recruiting rows, posts and parent activity for users `[low, high)`.
    func phaseOne(_ low: Int, _ high: Int) -> [PostgresQuery] {
        let created = "now() - (\(h("i", "0", 1)) % 700 + 30) * interval '1 day'"
        var statements = [
            q("""
                INSERT INTO auth.users (id, email, created_at)
                SELECT \(uid(Self.userKind, "i")), 'user' || i || '.s\(s)@scale.example', \(created)
                  FROM \(users(low, high))
                ON CONFLICT DO NOTHING
                """),
            q("""
                INSERT INTO public.profiles (user_id, username, full_name, role, created_at)
                SELECT \(uid(Self.userKind, "i")), lower(n.f) || '_' || lower(n.l) || '_\(s)_' || i, n.f || ' ' || n.l,
                       CASE WHEN (i / 4) % 10 = 9 THEN NULL WHEN i % 4 < 2 THEN 'parent' ELSE 'athlete' END, \(created)
                  FROM \(users(low, high)),
                       LATERAL (SELECT \(pick(Self.firstNames, "i", "0", 2)) AS f, \(pick(Self.lastNames, "i / 4", "0", 3)) AS l) AS n
                ON CONFLICT DO NOTHING
                """),
            q("""
                INSERT INTO public.family_units (id, name, created_at)
                SELECT \(uid(Self.familyKind, "f")), \(pick(Self.lastNames, "f", "0", 3)) || ' family',
                       now() - (\(h("f * 4", "0", 1)) % 700 + 30) * interval '1 day'
                  FROM \(families(low, high))
                 WHERE f % 10 <> 9
                ON CONFLICT DO NOTHING
                """),
            q("""
                INSERT INTO public.family_members (family_unit_id, user_id, role, created_at)
                SELECT \(uid(Self.familyKind, "i / 4")), \(uid(Self.userKind, "i")),
                       CASE WHEN i % 4 < 2 THEN 'parent' ELSE 'athlete' END, \(created)
                  FROM \(users(low, high))
                 WHERE (i / 4) % 10 <> 9
                ON CONFLICT DO NOTHING
                """),
            q("""
                INSERT INTO public.schools (id, family_unit_id, user_id, name, status, created_at)
                SELECT \(uid(Self.schoolKind, "i", "k")), \(uid(Self.familyKind, "i / 4")), \(uid(Self.userKind, "i")),
                       (\(Self.array(Self.colleges)))[1 + (\(h("i", "0", 5)) + k * 7) % \(Self.colleges.count)],
                       \(pick(Self.statuses, "i", "k", 6)), now() - (\(h("i", "k", 7)) % 400 + 1) * interval '1 day'
                  FROM \(users(low, high)), generate_series(1, 8) AS k
                 WHERE \(athlete)
                ON CONFLICT DO NOTHING
                """),
            q("""
                INSERT INTO public.coaches (id, school_id, first_name, last_name, email, created_at)
                SELECT \(uid(Self.coachKind, "i", "k * 4 + j")), \(uid(Self.schoolKind, "i", "k")), n.f, n.l,
                       lower(n.f) || '.' || lower(n.l) || '@college.example', now() - (\(h("i", "k", 7)) % 400) * interval '1 day'
                  FROM \(users(low, high)), generate_series(1, 8) AS k, generate_series(1, 2) AS j,
                       LATERAL (SELECT \(pick(Self.firstNames, "i", "k * 4 + j", 8)) AS f,
                                       \(pick(Self.lastNames, "i", "k * 4 + j", 9)) AS l) AS n
                 WHERE \(athlete)
                ON CONFLICT DO NOTHING
                """),
            q("""
                INSERT INTO public.interactions
                    (id, family_unit_id, user_id, logged_by, school_id, coach_id, type, direction, subject, content,
                     sentiment, occurred_at, attachments, created_at, updated_at)
                SELECT \(uid(Self.interactionKind, "i", "n")), \(uid(Self.familyKind, "i / 4")), x.uid, x.uid,
                       CASE WHEN r.sk = 0 THEN NULL ELSE \(uid(Self.schoolKind, "i", "r.sk")) END,
                       CASE WHEN r.sk = 0 THEN NULL ELSE \(uid(Self.coachKind, "i", "r.sk * 4 + 1 + \(h("i", "n", 10)) % 2")) END,
                       \(pick(Self.interactionTypes, "i", "n", 11)),
                       CASE WHEN \(h("i", "n", 12)) % 2 = 0 THEN 'outbound' ELSE 'inbound' END,
                       CASE WHEN \(h("i", "n", 13)) % 8 = 0 THEN NULL ELSE \(pick(Self.subjects, "i", "n", 13)) END,
                       \(pick(Self.contents, "i", "n", 14)),
                       (ARRAY['very_positive', 'positive', 'neutral', 'negative', NULL])[1 + \(h("i", "n", 15)) % 5],
                       x.occurred, CASE WHEN \(h("i", "n", 16)) % 10 = 0 THEN ARRAY['notes.pdf'] ELSE '{}'::text[] END,
                       least(now(), coalesce(x.occurred + interval '3 hours', r.ago)),
                       least(now(), coalesce(x.occurred + interval '3 hours', r.ago))
                  FROM (SELECT i, n, (\(h("i", "n", 17)) % 9)::int AS sk, \(ago("i", "n", 18, seconds: 31_536_000)) AS ago
                          FROM \(users(low, high)), generate_series(1, CASE WHEN \(heavy) THEN 75 ELSE 40 END) AS n
                         WHERE \(athlete)) AS r,
                       LATERAL (SELECT CASE WHEN \(h("i", "n", 19)) % 12 = 0 THEN NULL ELSE r.ago END AS occurred,
                                       \(uid(Self.userKind, "i")) AS uid) AS x
                ON CONFLICT DO NOTHING
                """),
            q("""
                INSERT INTO public.school_status_history (id, school_id, previous_status, new_status, notes, changed_by, changed_at)
                SELECT \(uid(Self.statusKind, "i", "n")), \(uid(Self.schoolKind, "i", "1 + \(h("i", "n", 20)) % 8")),
                       CASE WHEN r.si = 0 THEN NULL ELSE (\(Self.array(Self.statuses)))[r.si] END,
                       (\(Self.array(Self.statuses)))[r.si + 1], \(pick(Self.contents, "i", "n", 22)),
                       \(uid(Self.userKind, "i")), \(ago("i", "n", 23, seconds: 31_536_000))
                  FROM (SELECT i, n, (\(h("i", "n", 21)) % 5)::int AS si
                          FROM \(users(low, high)), generate_series(1, CASE WHEN \(heavy) THEN 60 ELSE 10 END) AS n
                         WHERE \(athlete)) AS r
                ON CONFLICT DO NOTHING
                """),
            q("""
                INSERT INTO public.documents (id, user_id, family_unit_id, title, type, created_at)
                SELECT \(uid(Self.documentKind, "i", "n")), \(uid(Self.userKind, "i")), \(uid(Self.familyKind, "i / 4")),
                       initcap(replace(x.t, '_', ' ')) || ' #' || n, x.t, \(ago("i", "n", 25, seconds: 31_536_000))
                  FROM \(users(low, high)), generate_series(1, CASE WHEN \(heavy) THEN 60 ELSE 8 END) AS n,
                       LATERAL (SELECT \(pick(Self.documentTypes, "i", "n", 24)) AS t) AS x
                 WHERE \(athlete)
                ON CONFLICT DO NOTHING
                """),
            q("""
                INSERT INTO public.events (id, user_id, school_id, type, name, start_date, end_date, created_at)
                SELECT \(uid(Self.eventKind, "i", "n")), \(uid(Self.userKind, "i")),
                       CASE WHEN x.sk = 0 THEN NULL ELSE \(uid(Self.schoolKind, "i", "x.sk")) END,
                       x.t, initcap(replace(x.t, '_', ' ')) || ' ' || n, x.st,
                       CASE WHEN \(h("i", "n", 26)) % 3 = 0 THEN NULL ELSE x.st + (1 + \(h("i", "n", 27)) % 3) * interval '1 day' END,
                       least(now(), x.st) - interval '7 days'
                  FROM \(users(low, high)), generate_series(1, 8) AS n,
                       LATERAL (SELECT (\(h("i", "n", 28)) % 9)::int AS sk, \(pick(Self.eventTypes, "i", "n", 29)) AS t,
                                       now() + (60 - \(h("i", "n", 30)) % 360) * interval '1 day' AS st) AS x
                 WHERE \(athlete)
                ON CONFLICT DO NOTHING
                """),
            q("""
                INSERT INTO public.offers (id, athlete_id, school_id, offer_type, offer_date, created_at)
                SELECT \(uid(Self.offerKind, "i", "1")), \(uid(Self.userKind, "i")),
                       \(uid(Self.schoolKind, "i", "1 + \(h("i", "0", 31)) % 8")), \(pick(Self.offerTypes, "i", "0", 32)),
                       now() - x.d * interval '1 day', now() - (x.d - 1) * interval '1 day'
                  FROM \(users(low, high)), LATERAL (SELECT 2 + \(h("i", "0", 33)) % 200 AS d) AS x
                 WHERE \(athlete) AND \(h("i", "0", 34)) % 2 = 0
                ON CONFLICT DO NOTHING
                """),
            q("""
                INSERT INTO public.posts (id, author, caption, created_at)
                SELECT \(uid(Self.postKind, "i", "k")), \(uid(Self.userKind, "i")), \(pick(Self.captions, "i", "k", 35)),
                       \(ago("i", "k", 36, seconds: 7_776_000))
                  FROM \(users(low, high)), generate_series(1, 3) AS k
                ON CONFLICT DO NOTHING
                """),
            q("""
                INSERT INTO public.parent_activities
                    (id, family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id, changes,
                     device_id, created_at)
                SELECT \(uid(Self.parentActivityKind, "f", "n")), \(uid(Self.familyKind, "f")),
                       \(uid(Self.userKind, "f * 4 + x.p")), x.t,
                       CASE WHEN x.t LIKE 'app_%' THEN 'app_categorization' WHEN x.t = 'points_adjusted' THEN 'points'
                            WHEN x.t = 'reward_redeemed' THEN 'reward' WHEN x.t = 'settings_updated' THEN 'family_settings'
                            ELSE 'child_profile' END,
                       \(uid(Self.userKind, "f * 4 + 2 + \(h("f", "n", 37)) % 2")),
                       CASE x.t
                           WHEN 'points_adjusted' THEN jsonb_build_object('points', jsonb_build_object('before', x.v, 'after', x.v + 10))
                           WHEN 'reward_redeemed' THEN jsonb_build_object('reward', 'Extra screen time',
                               'points', jsonb_build_object('before', x.v + 50, 'after', x.v))
                           WHEN 'settings_updated' THEN jsonb_build_object('weekly_summary', jsonb_build_object('before', false, 'after', true))
                           WHEN 'child_profile_modified' THEN jsonb_build_object('daily_limit_minutes',
                               jsonb_build_object('before', 60 + x.v % 60, 'after', 90 + x.v % 60))
                           WHEN 'child_added' THEN jsonb_build_object('name', jsonb_build_object('before', NULL, 'after', 'New child'))
                           ELSE jsonb_build_object('category', jsonb_build_object('before', 'entertainment', 'after', 'learning'))
                       END,
                       'device-' || (f * 4 + x.p), \(ago("f", "n", 38, seconds: 5_184_000))
                  FROM \(families(low, high)), generate_series(1, 40) AS n,
                       LATERAL (SELECT (\(h("f", "n", 39)) % 2)::int AS p, (\(h("f", "n", 40)) % 200)::int AS v,
                                       \(pick(Self.parentActivityTypes, "f", "n", 41)) AS t) AS x
                 WHERE f % 10 <> 9 AND f * 4 + 3 < \(users)
                ON CONFLICT DO NOTHING
                """),
        ]
        if !triggers {
            statements.append(q("""
                UPDATE public.coaches AS c SET last_contact_date = x.last
                  FROM (SELECT coach_id, max(coalesce(occurred_at, created_at)) AS last
                          FROM public.interactions
                         WHERE logged_by = ANY(ARRAY(SELECT \(uid(Self.userKind, "i")) FROM \(users(low, high)) WHERE \(athlete)))
                           AND coach_id IS NOT NULL
                         GROUP BY coach_id) AS x
                 WHERE c.id = x.coach_id
                """))
        }
        return statements
    }

    static let parentActivityTypes = [
        "app_categorization_added", "app_categorization_modified", "app_categorization_removed", "points_adjusted",
        "reward_redeemed", "child_profile_modified", "settings_updated", "child_added",
    ]

    /// Follows, likes and comments of users `[low, high)` (every user's posts exist by now), with their notifications.
    func phaseTwo(_ low: Int, _ high: Int) -> [PostgresQuery] {
        let other = { (n: Int) in "(i + 1 + \(self.h("i", "k", n)) % \(self.users - 1)) % \(self.users)" }
        let follows = """
            INSERT INTO public.follows (follower, followee, created_at)
            SELECT \(uid(Self.userKind, "i")), \(uid(Self.userKind, other(42))), \(ago("i", "k", 43, seconds: 15_552_000))
              FROM \(users(low, high)), generate_series(1, 20) AS k
            ON CONFLICT DO NOTHING
            """
        let likes = """
            INSERT INTO public.likes (post_id, user_id, created_at)
            SELECT p.id, \(uid(Self.userKind, "i")),
                   p.created_at + (now() - p.created_at) * ((\(h("i", "k", 45)) % 1000) / 1000.0)::float8
              FROM \(users(low, high)), generate_series(1, 20) AS k,
                   LATERAL (SELECT id, created_at FROM public.posts
                             WHERE id = \(uid(Self.postKind, other(44), "1 + \(h("i", "k", 46)) % 3"))) AS p
            ON CONFLICT DO NOTHING
            """
        let comments = """
            INSERT INTO public.comments (id, post_id, user_id, body, created_at)
            SELECT \(uid(Self.commentKind, "i", "k")), p.id, \(uid(Self.userKind, "i")), \(pick(Self.commentBodies, "i", "k", 47)),
                   p.created_at + (now() - p.created_at) * ((\(h("i", "k", 48)) % 1000) / 1000.0)::float8
              FROM \(users(low, high)), generate_series(1, 5) AS k,
                   LATERAL (SELECT id, created_at FROM public.posts
                             WHERE id = \(uid(Self.postKind, other(49), "1 + \(h("i", "k", 50)) % 3"))) AS p
            ON CONFLICT DO NOTHING
            """
        guard !triggers else { return [q(follows), q(likes), q(comments)] }
        let read = "created_at < now() - interval '3 days'"
        return [
            q("""
                WITH ins AS (\(follows) RETURNING follower, followee, created_at),
                     act AS (INSERT INTO public.activities (user_id, actor_id, activity_type, is_read, created_at)
                             SELECT followee, follower, 'follow', \(read), created_at FROM ins WHERE followee <> follower
                             RETURNING 1)
                SELECT (SELECT count(*) FROM ins), (SELECT count(*) FROM act)
                """),
            q("""
                WITH ins AS (\(likes) RETURNING post_id, user_id, created_at),
                     act AS (INSERT INTO public.activities (user_id, actor_id, activity_type, post_id, is_read, created_at)
                             SELECT p.author, ins.user_id, 'like', ins.post_id, ins.\(read), ins.created_at
                               FROM ins JOIN public.posts AS p ON p.id = ins.post_id
                              WHERE p.author <> ins.user_id
                             RETURNING 1)
                SELECT (SELECT count(*) FROM ins), (SELECT count(*) FROM act)
                """),
            q("""
                WITH ins AS (\(comments) RETURNING id, post_id, user_id, created_at),
                     act AS (INSERT INTO public.activities (user_id, actor_id, activity_type, post_id, comment_id, is_read, created_at)
                             SELECT p.author, ins.user_id, 'comment', ins.post_id, ins.id, ins.\(read), ins.created_at
                               FROM ins JOIN public.posts AS p ON p.id = ins.post_id
                              WHERE p.author <> ins.user_id
                             RETURNING 1)
                SELECT (SELECT count(*) FROM ins), (SELECT count(*) FROM act)
                """),
        ]
    }
}

-- The exact queries of DESIGN §3, verbatim, as the repositories send them
-- (parameterized, under the user's RLS scope): each runs and returns what the
-- user may see. For the queries the design describes without spelling out
-- (notifications, parent activity), the SQL here is the recommended form.
-- Then the plans: every ordered query has an index that serves its ORDER BY
-- (checked on this small data set with sequential and bitmap scans switched
-- off, so that only an index can avoid the Sort), and every filtered query has
-- an index behind its WHERE. The 1M-row check of the feed is in
-- feed_query_plans.sql.
-- Creates its own users; does not depend on the demo data.

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;

SELECT plan(49);

-- World: family F with parent P and athletes A and B; A has two schools.
--   P  ee000000-0000-4000-8000-000000000001
--   A  ee000000-0000-4000-8000-000000000002
--   B  ee000000-0000-4000-8000-000000000003
--   F  eef00000-0000-4000-8000-000000000001
INSERT INTO auth.users (id) VALUES
    ('ee000000-0000-4000-8000-000000000001'),
    ('ee000000-0000-4000-8000-000000000002'),
    ('ee000000-0000-4000-8000-000000000003');
INSERT INTO public.profiles (user_id, username, full_name, role) VALUES
    ('ee000000-0000-4000-8000-000000000001', 'xq_parent', 'Pat Parent', 'parent'),
    ('ee000000-0000-4000-8000-000000000002', 'xq_athlete', 'Alex Athlete', 'athlete'),
    ('ee000000-0000-4000-8000-000000000003', 'xq_sibling', 'Blake Athlete', 'athlete');
INSERT INTO public.family_units (id, name) VALUES ('eef00000-0000-4000-8000-000000000001', 'Query family');
INSERT INTO public.family_members (family_unit_id, user_id, role) VALUES
    ('eef00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000001', 'parent'),
    ('eef00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000002', 'athlete'),
    ('eef00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000003', 'athlete');
INSERT INTO public.schools (id, family_unit_id, user_id, name) VALUES
    ('ee500000-0000-4000-8000-000000000001', 'eef00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000002', 'First U'),
    ('ee500000-0000-4000-8000-000000000002', 'eef00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000002', 'Second U'),
    ('ee500000-0000-4000-8000-000000000003', 'eef00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000003', 'Sibling U');
INSERT INTO public.coaches (school_id, first_name, last_name) VALUES
    ('ee500000-0000-4000-8000-000000000001', 'Coach', 'One'),
    ('ee500000-0000-4000-8000-000000000002', 'Coach', 'Two'),
    ('ee500000-0000-4000-8000-000000000003', 'Coach', 'Three');
-- A: 6 interactions (one with no school, one with no occurred_at); B: 2.
INSERT INTO public.interactions (family_unit_id, user_id, logged_by, school_id, type, direction, subject, occurred_at)
SELECT 'eef00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000002', 'ee000000-0000-4000-8000-000000000002',
       CASE WHEN g = 1 THEN NULL ELSE 'ee500000-0000-4000-8000-000000000001'::uuid END,
       'email', 'outbound', 'Subject ' || g,
       CASE WHEN g = 2 THEN NULL ELSE now() - g * interval '1 day' END
  FROM generate_series(1, 6) AS g;
INSERT INTO public.interactions (family_unit_id, user_id, logged_by, school_id, type, direction, occurred_at)
SELECT 'eef00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000003', 'ee000000-0000-4000-8000-000000000003',
       'ee500000-0000-4000-8000-000000000003', 'text', 'inbound', now() - g * interval '1 day'
  FROM generate_series(1, 2) AS g;
INSERT INTO public.school_status_history (school_id, previous_status, new_status, changed_by, changed_at) VALUES
    ('ee500000-0000-4000-8000-000000000001', NULL, 'researching', 'ee000000-0000-4000-8000-000000000002', now() - interval '9 days'),
    ('ee500000-0000-4000-8000-000000000001', 'researching', 'contacted', 'ee000000-0000-4000-8000-000000000002', now() - interval '5 days'),
    ('ee500000-0000-4000-8000-000000000002', NULL, 'interested', 'ee000000-0000-4000-8000-000000000002', now() - interval '3 days'),
    ('ee500000-0000-4000-8000-000000000003', NULL, 'interested', 'ee000000-0000-4000-8000-000000000003', now() - interval '2 days');
INSERT INTO public.documents (user_id, family_unit_id, title, type) VALUES
    ('ee000000-0000-4000-8000-000000000002', 'eef00000-0000-4000-8000-000000000001', 'Transcript', 'transcript'),
    ('ee000000-0000-4000-8000-000000000002', NULL, 'Personal notes', 'notes'),
    ('ee000000-0000-4000-8000-000000000001', 'eef00000-0000-4000-8000-000000000001', 'Budget', 'financial');
INSERT INTO public.events (user_id, school_id, type, name, start_date, end_date) VALUES
    ('ee000000-0000-4000-8000-000000000002', 'ee500000-0000-4000-8000-000000000001', 'camp', 'Camp', now() - interval '20 days', now() - interval '19 days'),
    ('ee000000-0000-4000-8000-000000000002', NULL, 'showcase', 'Showcase', now() + interval '10 days', NULL);
INSERT INTO public.offers (athlete_id, school_id, offer_type, offer_date) VALUES
    ('ee000000-0000-4000-8000-000000000002', 'ee500000-0000-4000-8000-000000000002', 'verbal', now() - interval '1 day');
-- Social: A's post liked by P and B (two like activities), commented on by P,
-- and P follows A; one like is older than 30 days.
INSERT INTO public.posts (id, author, caption) VALUES
    ('eeb00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000002', 'Game day'),
    ('eeb00000-0000-4000-8000-000000000002', 'ee000000-0000-4000-8000-000000000002', 'Old post');
INSERT INTO public.likes (post_id, user_id, created_at) VALUES
    ('eeb00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000001', now() - interval '2 hours'),
    ('eeb00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000003', now() - interval '1 hour'),
    ('eeb00000-0000-4000-8000-000000000002', 'ee000000-0000-4000-8000-000000000001', now() - interval '40 days');
INSERT INTO public.comments (post_id, user_id, body, created_at) VALUES
    ('eeb00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000001', 'Go team', now() - interval '30 minutes');
INSERT INTO public.follows (follower, followee, created_at) VALUES
    ('ee000000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000002', now() - interval '3 days');
-- Parent activity: five in the window, one older.
INSERT INTO public.parent_activities (family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id, created_at)
SELECT 'eef00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000001', 'points_adjusted', 'points',
       'ee000000-0000-4000-8000-000000000002', now() - g * interval '7 days'
  FROM generate_series(0, 5) AS g;

-- The queries ------------------------------------------------------------------------------

-- Feed (seed 000), verbatim.
PREPARE feed_interactions(uuid) AS
    SELECT id, school_id, type, content, subject, occurred_at, created_at FROM interactions WHERE logged_by = $1 ORDER BY created_at DESC LIMIT 50;
PREPARE feed_status_changes(uuid) AS
    SELECT id, school_id, new_status, notes, changed_at FROM school_status_history WHERE changed_by = $1 ORDER BY changed_at DESC LIMIT 50;
PREPARE feed_documents(uuid) AS
    SELECT id, title, type, created_at FROM documents WHERE user_id = $1 ORDER BY created_at DESC LIMIT 50;
PREPARE school_names(uuid[]) AS
    SELECT id, name FROM schools WHERE id = ANY($1);

-- Timeline (seed 002).
PREPARE timeline_events(uuid) AS
    SELECT id, type, name, start_date, end_date, school_id FROM events WHERE user_id = $1;
PREPARE timeline_interactions(uuid) AS
    SELECT id, type, subject, occurred_at, created_at, school_id FROM interactions WHERE user_id = $1;
PREPARE timeline_offers(uuid) AS
    SELECT id, offer_type, offer_date, created_at, school_id FROM offers WHERE athlete_id = $1;
PREPARE timeline_status_history(uuid[]) AS
    SELECT id, school_id, previous_status, new_status, changed_at, notes FROM school_status_history WHERE school_id = ANY($1) ORDER BY changed_at DESC;

-- Interactions list (seed 004).
PREPARE athlete_interactions(uuid) AS
    SELECT * FROM interactions WHERE logged_by = $1 ORDER BY occurred_at DESC;
PREPARE family_interactions(uuid) AS
    SELECT * FROM interactions WHERE family_unit_id = $1 ORDER BY occurred_at DESC;
PREPARE family_schools(uuid) AS
    SELECT id, name FROM schools WHERE family_unit_id = $1;
PREPARE school_coaches(uuid[]) AS
    SELECT id, first_name, last_name, school_id FROM coaches WHERE school_id = ANY($1);

-- Notifications (seed 001).
PREPARE notifications(uuid) AS
    SELECT a.id, a.user_id, a.actor_id, a.activity_type, a.post_id, a.comment_id, a.is_read, a.created_at,
           p.username, p.full_name, p.avatar_url, c.body AS comment_body, po.caption AS post_caption
      FROM activities AS a
      JOIN profiles AS p ON p.user_id = a.actor_id
      LEFT JOIN comments AS c ON c.id = a.comment_id
      LEFT JOIN posts AS po ON po.id = a.post_id
     WHERE a.user_id = $1 AND a.created_at >= now() - interval '30 days'
     ORDER BY a.created_at DESC;
PREPARE unread_count(uuid) AS
    SELECT count(*) FROM activities WHERE user_id = $1 AND is_read = false;

-- Parent activity (seed 003): first page, then the page after a cursor.
PREPARE family_activity_first(uuid, int) AS
    SELECT id, family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id, changes, device_id, created_at
      FROM parent_activities
     WHERE family_unit_id = $1 AND created_at >= now() - interval '30 days'
     ORDER BY created_at DESC, id DESC
     LIMIT $2;
PREPARE family_activity_after(uuid, timestamptz, uuid, int) AS
    SELECT id, family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id, changes, device_id, created_at
      FROM parent_activities
     WHERE family_unit_id = $1 AND created_at >= now() - interval '30 days'
       AND (created_at, id) < ($2, $3)
     ORDER BY created_at DESC, id DESC
     LIMIT $4;

-- Helpers -----------------------------------------------------------------------------------

-- The number of rows a statement returned or changed.
CREATE FUNCTION pg_temp.row_count(stmt text) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    n int;
BEGIN
    EXECUTE stmt;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$$;

-- The plan of a statement as JSON.
CREATE FUNCTION pg_temp.plan_of(stmt text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || stmt INTO plan;
    RETURN plan;
END
$$;

CREATE FUNCTION pg_temp.index_names(plan jsonb) RETURNS text[]
LANGUAGE sql AS $$
    SELECT coalesce(array_agg(DISTINCT node ->> 'Index Name'), '{}')
      FROM jsonb_path_query($1, 'strict $.**') AS node
     WHERE jsonb_typeof(node) = 'object' AND node ? 'Index Name'
$$;

CREATE FUNCTION pg_temp.sort_nodes(plan jsonb) RETURNS int
LANGUAGE sql AS $$
    SELECT count(*)::int
      FROM jsonb_path_query($1, 'strict $.**') AS node
     WHERE jsonb_typeof(node) = 'object'
       AND node ->> 'Node Type' IN ('Sort', 'Incremental Sort')
$$;

-- As athlete A, under RLS (18) ----------------------------------------------------------------

SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "ee000000-0000-4000-8000-000000000002", "role": "authenticated"}';

SELECT is(pg_temp.row_count($$EXECUTE feed_interactions('ee000000-0000-4000-8000-000000000002')$$), 6,
          'feed: the athlete''s interactions');
SELECT is(pg_temp.row_count($$EXECUTE feed_status_changes('ee000000-0000-4000-8000-000000000002')$$), 3,
          'feed: the athlete''s status changes');
SELECT is(pg_temp.row_count($$EXECUTE feed_documents('ee000000-0000-4000-8000-000000000002')$$), 2,
          'feed: the athlete''s documents, the personal one included');
SELECT is(pg_temp.row_count($$EXECUTE school_names('{ee500000-0000-4000-8000-000000000001,ee500000-0000-4000-8000-000000000002,ee500000-0000-4000-8000-000000000003}')$$), 2,
          'school names: only the athlete''s own schools resolve');
SELECT is(pg_temp.row_count($$EXECUTE timeline_events('ee000000-0000-4000-8000-000000000002')$$), 2,
          'timeline: events');
SELECT is(pg_temp.row_count($$EXECUTE timeline_interactions('ee000000-0000-4000-8000-000000000002')$$), 6,
          'timeline: interactions');
SELECT is(pg_temp.row_count($$EXECUTE timeline_offers('ee000000-0000-4000-8000-000000000002')$$), 1,
          'timeline: offers');
SELECT is(pg_temp.row_count($$EXECUTE timeline_status_history('{ee500000-0000-4000-8000-000000000001,ee500000-0000-4000-8000-000000000002}')$$), 3,
          'timeline: status history of all the athlete''s schools in one query');
SELECT is(pg_temp.row_count($$EXECUTE athlete_interactions('ee000000-0000-4000-8000-000000000002')$$), 6,
          'interactions list: the athlete''s own');
SELECT is(pg_temp.row_count($$EXECUTE family_schools('eef00000-0000-4000-8000-000000000001')$$), 2,
          'interactions list: an athlete sees only their own schools of the family');
SELECT is(pg_temp.row_count($$EXECUTE school_coaches('{ee500000-0000-4000-8000-000000000001,ee500000-0000-4000-8000-000000000002,ee500000-0000-4000-8000-000000000003}')$$), 2,
          'interactions list: coaches of the athlete''s schools');
SELECT results_eq(
    $$EXECUTE notifications('ee000000-0000-4000-8000-000000000002')$$,
    $$SELECT a.id, a.user_id, a.actor_id, a.activity_type, a.post_id, a.comment_id, a.is_read, a.created_at,
             p.username, p.full_name, p.avatar_url, c.body, po.caption
        FROM activities AS a
        JOIN profiles AS p ON p.user_id = a.actor_id
        LEFT JOIN comments AS c ON c.id = a.comment_id
        LEFT JOIN posts AS po ON po.id = a.post_id
       WHERE a.created_at >= now() - interval '30 days'
       ORDER BY a.created_at DESC$$,
    'notifications: the last 30 days with actor profile, comment body and post caption');
SELECT results_eq($$EXECUTE unread_count('ee000000-0000-4000-8000-000000000002')$$, 'VALUES (5::bigint)',
                  'notifications: unread count (not windowed, as in seed 001)');
SELECT is(pg_temp.row_count($$UPDATE activities SET is_read = true
                               WHERE id = (SELECT id FROM activities WHERE activity_type = 'follow')$$), 1,
          'notifications: mark one read');
SELECT is(pg_temp.row_count($$UPDATE activities SET is_read = true
                               WHERE id = ANY (ARRAY(SELECT id FROM activities WHERE activity_type = 'like'
                                                        AND post_id = 'eeb00000-0000-4000-8000-000000000001'))$$), 2,
          'notifications: mark a group read');
SELECT is(pg_temp.row_count($$UPDATE activities SET is_read = true
                               WHERE user_id = 'ee000000-0000-4000-8000-000000000002' AND is_read = false$$), 2,
          'notifications: mark all read (the comment and the old like were left)');
SELECT is(pg_temp.row_count($$DELETE FROM activities
                               WHERE id = (SELECT id FROM activities WHERE activity_type = 'comment')
                                 AND user_id = 'ee000000-0000-4000-8000-000000000002'$$), 1,
          'notifications: delete one');
SELECT is(pg_temp.row_count($$DELETE FROM activities WHERE user_id = 'ee000000-0000-4000-8000-000000000002'$$), 4,
          'notifications: clear all');

-- As parent P, under RLS (7) -----------------------------------------------------------------

SET LOCAL request.jwt.claims TO '{"sub": "ee000000-0000-4000-8000-000000000001", "role": "authenticated"}';

SELECT is(pg_temp.row_count($$EXECUTE family_interactions('eef00000-0000-4000-8000-000000000001')$$), 8,
          'interactions list: a parent sees the whole family''s');
SELECT is(pg_temp.row_count($$EXECUTE family_schools('eef00000-0000-4000-8000-000000000001')$$), 3,
          'interactions list: a parent sees all the family''s schools');
SELECT is(pg_temp.row_count($$EXECUTE school_coaches('{ee500000-0000-4000-8000-000000000001,ee500000-0000-4000-8000-000000000002,ee500000-0000-4000-8000-000000000003}')$$), 3,
          'interactions list: and their coaches');
SELECT is(pg_temp.row_count($$EXECUTE timeline_events('ee000000-0000-4000-8000-000000000002')$$), 2,
          'timeline: a parent sees the athlete''s events');
SELECT is(pg_temp.row_count($$EXECUTE family_activity_first('eef00000-0000-4000-8000-000000000001', 3)$$), 3,
          'parent activity: the first page');
SELECT is(pg_temp.row_count(
              (SELECT format('EXECUTE family_activity_after(%L, %L, %L, 3)', family_unit_id, created_at, id)
                 FROM parent_activities
                ORDER BY created_at DESC, id DESC
               OFFSET 2 LIMIT 1)), 2,
          'parent activity: the page after the cursor holds the rest of the 30 days');
SELECT is(pg_temp.row_count($$INSERT INTO parent_activities
                                  (family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id, changes, device_id)
                               VALUES ('eef00000-0000-4000-8000-000000000001', 'ee000000-0000-4000-8000-000000000001',
                                       'settings_updated', 'family_settings', 'eef00000-0000-4000-8000-000000000001',
                                       '{"bedtime": {"before": "22:00", "after": "21:30"}}', 'test-device')
                               RETURNING id, created_at$$), 1,
          'parent activity: record one');

RESET ROLE;

-- Plans (24) ---------------------------------------------------------------------------------

SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;

CREATE TEMP TABLE plans (ord int, statement text, expected_index text, ordered boolean, plan jsonb);
INSERT INTO plans (ord, statement, expected_index, ordered) VALUES
    ( 1, $$EXECUTE feed_interactions('ee000000-0000-4000-8000-000000000002')$$,   'interactions_logged_by_created_at_idx', true),
    ( 2, $$EXECUTE feed_status_changes('ee000000-0000-4000-8000-000000000002')$$, 'school_status_history_changed_by_changed_at_idx', true),
    ( 3, $$EXECUTE feed_documents('ee000000-0000-4000-8000-000000000002')$$,      'documents_user_id_created_at_idx', true),
    ( 4, $$EXECUTE athlete_interactions('ee000000-0000-4000-8000-000000000002')$$, 'interactions_logged_by_occurred_at_idx', true),
    ( 5, $$EXECUTE family_interactions('eef00000-0000-4000-8000-000000000001')$$,  'interactions_family_unit_id_occurred_at_idx', true),
    ( 6, $$EXECUTE notifications('ee000000-0000-4000-8000-000000000002')$$,       'idx_activities_user_id', true),
    ( 7, $$EXECUTE family_activity_first('eef00000-0000-4000-8000-000000000001', 20)$$,
         'parent_activities_family_unit_id_created_at_id_idx', true),
    ( 8, $$EXECUTE family_activity_after('eef00000-0000-4000-8000-000000000001', now(), 'eeeeeeee-0000-4000-8000-000000000000', 20)$$,
         'parent_activities_family_unit_id_created_at_id_idx', true),
    ( 9, $$EXECUTE school_names('{ee500000-0000-4000-8000-000000000001}')$$,       'schools_pkey', false),
    (10, $$EXECUTE timeline_events('ee000000-0000-4000-8000-000000000002')$$,      'events_user_id_start_date_idx', false),
    (11, $$EXECUTE timeline_interactions('ee000000-0000-4000-8000-000000000002')$$, 'interactions_user_id_occurred_at_idx', false),
    (12, $$EXECUTE timeline_offers('ee000000-0000-4000-8000-000000000002')$$,      'offers_athlete_id_offer_date_idx', false),
    (13, $$EXECUTE timeline_status_history('{ee500000-0000-4000-8000-000000000001,ee500000-0000-4000-8000-000000000002}')$$,
         'school_status_history_school_id_changed_at_idx', false),
    (14, $$EXECUTE family_schools('eef00000-0000-4000-8000-000000000001')$$,       'schools_family_unit_id_idx', false),
    (15, $$EXECUTE school_coaches('{ee500000-0000-4000-8000-000000000001}')$$,     'coaches_school_id_idx', false),
    (16, $$EXECUTE unread_count('ee000000-0000-4000-8000-000000000002')$$,         'idx_activities_is_read', false);
UPDATE plans SET plan = pg_temp.plan_of(statement);

SELECT ok(p.expected_index = ANY (pg_temp.index_names(p.plan)),
          format('%s uses %s', split_part(substr(p.statement, 9), '(', 1), p.expected_index))
  FROM plans AS p ORDER BY p.ord;
SELECT is(pg_temp.sort_nodes(p.plan), 0,
          format('%s needs no Sort', split_part(substr(p.statement, 9), '(', 1)))
  FROM plans AS p WHERE p.ordered ORDER BY p.ord;

SELECT * FROM finish();
ROLLBACK;

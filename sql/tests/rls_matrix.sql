-- RLS matrix: every app table × SELECT / INSERT / UPDATE / DELETE × five
-- actors, plus the edge rules the matrix cannot express.
--
-- Actors, in matrix order:
--   1 owner                     the row's owner (the athlete A1 for most tables)
--   2 other user                A2, an athlete of another family
--   3 parent of the family      P1, a parent of the owner's family (for
--                               parent_activities, owned by P1: co-parent P1b)
--   4 parent of another family  P2
--   5 anon                      no user at all
--
-- Each attempt runs in a subtransaction that is always rolled back, so every
-- actor meets the same rows. "allowed" means the statement saw or changed the
-- row; "denied" means it saw or changed nothing, or failed with SQLSTATE 42501
-- (a row-security or privilege refusal). Any other error is reported as is.
-- Creates its own users; does not depend on the demo data.

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;

SELECT plan(339);

-- The cast ---------------------------------------------------------------------------

CREATE TEMP TABLE ids (name text PRIMARY KEY, id uuid NOT NULL);
GRANT SELECT ON ids TO PUBLIC;
INSERT INTO ids VALUES
    ('P1',  'ab000000-0000-4000-8000-000000000011'),  -- parent, family F1
    ('P1b', 'ab000000-0000-4000-8000-000000000012'),  -- co-parent, family F1
    ('A1',  'ab000000-0000-4000-8000-000000000013'),  -- athlete, family F1 (owner)
    ('N',   'ab000000-0000-4000-8000-000000000014'),  -- athlete, family F1, no profile yet
    ('P2',  'ab000000-0000-4000-8000-000000000021'),  -- parent, family F2
    ('A2',  'ab000000-0000-4000-8000-000000000022'),  -- athlete, family F2
    ('F1',  'ab0f0000-0000-4000-8000-000000000001'),
    ('F2',  'ab0f0000-0000-4000-8000-000000000002'),
    ('S1',  'ab050000-0000-4000-8000-000000000001'),  -- A1's school
    ('S2',  'ab050000-0000-4000-8000-000000000002'),  -- A2's school
    ('C1',  'ab0c0000-0000-4000-8000-000000000001'),  -- coach at S1
    ('I1',  'ab010000-0000-4000-8000-000000000001'),  -- A1's interaction
    ('H1',  'ab550000-0000-4000-8000-000000000001'),  -- status change of S1 by A1
    ('D1',  'ab0d0000-0000-4000-8000-000000000001'),  -- A1's document
    ('D2',  'ab0d0000-0000-4000-8000-000000000002'),  -- P1b's family document
    ('E1',  'ab0e0000-0000-4000-8000-000000000001'),  -- A1's event
    ('O1',  'ab0ff000-0000-4000-8000-000000000001'),  -- A1's offer
    ('X1',  'ab0b0000-0000-4000-8000-000000000001'),  -- A1's post
    ('X2',  'ab0b0000-0000-4000-8000-000000000002'),  -- A2's post
    ('K1',  'ab0c0de0-0000-4000-8000-000000000001'),  -- A1's comment on X2
    ('T1',  'ab0a0000-0000-4000-8000-000000000001'),  -- activity for A1 (recipient)
    ('PA1', 'ab9a0000-0000-4000-8000-000000000001');  -- parent activity of F1 by P1

-- Replaces {NAME} with the quoted id of NAME.
CREATE FUNCTION pg_temp.fill(stmt text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    cast_member record;
BEGIN
    FOR cast_member IN SELECT name, id FROM ids ORDER BY length(name) DESC LOOP
        stmt := replace(stmt, '{' || cast_member.name || '}', quote_literal(cast_member.id) || '::uuid');
    END LOOP;
    RETURN stmt;
END
$$;

-- Runs stmt as `role` with `actor` as the JWT subject (NULL: no subject) in a
-- subtransaction that is rolled back. A SELECT must return one count.
CREATE FUNCTION pg_temp.attempt(role text, actor uuid, stmt text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    affected bigint;
BEGIN
    BEGIN
        PERFORM set_config('role', role, true);
        PERFORM set_config('request.jwt.claims',
            CASE WHEN actor IS NULL THEN json_build_object('role', role)
                 ELSE json_build_object('sub', actor, 'role', role) END::text,
            true);
        IF stmt ~* '^\s*select' THEN
            EXECUTE stmt INTO affected;
        ELSE
            EXECUTE stmt;
            GET DIAGNOSTICS affected = ROW_COUNT;
        END IF;
        RAISE EXCEPTION USING ERRCODE = 'ZX999', MESSAGE = affected::text;
    EXCEPTION
        WHEN SQLSTATE 'ZX999' THEN
            RETURN CASE WHEN SQLERRM::bigint > 0 THEN 'allowed' ELSE 'denied' END;
        WHEN insufficient_privilege THEN
            RETURN 'denied';
        WHEN OTHERS THEN
            RETURN 'error ' || SQLSTATE || ': ' || SQLERRM;
    END;
END
$$;

-- Runs stmt as the signed-in user `actor`, or as anon when actor is NULL.
CREATE FUNCTION pg_temp.attempt(actor uuid, stmt text) RETURNS text
LANGUAGE sql AS $$
    SELECT pg_temp.attempt(CASE WHEN actor IS NULL THEN 'anon' ELSE 'authenticated' END, actor, pg_temp.fill(stmt))
$$;

CREATE FUNCTION pg_temp.id(name text) RETURNS uuid
LANGUAGE sql AS $$ SELECT id FROM ids WHERE ids.name = $1 $$;

-- The world (as the superuser running the tests) ---------------------------------------------

INSERT INTO auth.users (id, email)
SELECT id, lower(name) || '@rls.test' FROM ids WHERE name IN ('P1', 'P1b', 'A1', 'N', 'P2', 'A2');

INSERT INTO public.profiles (user_id, username, role) VALUES
    (pg_temp.id('P1'),  'rls_p1',  'parent'),
    (pg_temp.id('P1b'), 'rls_p1b', 'parent'),
    (pg_temp.id('A1'),  'rls_a1',  'athlete'),
    (pg_temp.id('P2'),  'rls_p2',  'parent'),
    (pg_temp.id('A2'),  'rls_a2',  'athlete');

INSERT INTO public.family_units (id, name) VALUES
    (pg_temp.id('F1'), 'RLS family one'),
    (pg_temp.id('F2'), 'RLS family two');

INSERT INTO public.family_members (family_unit_id, user_id, role) VALUES
    (pg_temp.id('F1'), pg_temp.id('P1'),  'parent'),
    (pg_temp.id('F1'), pg_temp.id('P1b'), 'parent'),
    (pg_temp.id('F1'), pg_temp.id('A1'),  'athlete'),
    (pg_temp.id('F1'), pg_temp.id('N'),   'athlete'),
    (pg_temp.id('F2'), pg_temp.id('P2'),  'parent'),
    (pg_temp.id('F2'), pg_temp.id('A2'),  'athlete');

INSERT INTO public.schools (id, family_unit_id, user_id, name) VALUES
    (pg_temp.id('S1'), pg_temp.id('F1'), pg_temp.id('A1'), 'RLS State'),
    (pg_temp.id('S2'), pg_temp.id('F2'), pg_temp.id('A2'), 'RLS Tech');

INSERT INTO public.coaches (id, school_id, first_name, last_name) VALUES
    (pg_temp.id('C1'), pg_temp.id('S1'), 'Casey', 'Coach');

INSERT INTO public.interactions (id, family_unit_id, user_id, logged_by, school_id, coach_id, type, direction, occurred_at) VALUES
    (pg_temp.id('I1'), pg_temp.id('F1'), pg_temp.id('A1'), pg_temp.id('A1'), pg_temp.id('S1'), pg_temp.id('C1'), 'email', 'outbound', now());

INSERT INTO public.school_status_history (id, school_id, previous_status, new_status, changed_by) VALUES
    (pg_temp.id('H1'), pg_temp.id('S1'), 'researching', 'contacted', pg_temp.id('A1'));

INSERT INTO public.documents (id, user_id, family_unit_id, title, type) VALUES
    (pg_temp.id('D1'), pg_temp.id('A1'),  pg_temp.id('F1'), 'Transcript', 'transcript'),
    (pg_temp.id('D2'), pg_temp.id('P1b'), pg_temp.id('F1'), 'Budget', 'financial');

INSERT INTO public.events (id, user_id, school_id, type, name, start_date) VALUES
    (pg_temp.id('E1'), pg_temp.id('A1'), pg_temp.id('S1'), 'camp', 'RLS camp', now());

INSERT INTO public.offers (id, athlete_id, school_id, offer_type, offer_date) VALUES
    (pg_temp.id('O1'), pg_temp.id('A1'), pg_temp.id('S1'), 'verbal', now());

INSERT INTO public.posts (id, author, caption) VALUES
    (pg_temp.id('X1'), pg_temp.id('A1'), 'A1 post'),
    (pg_temp.id('X2'), pg_temp.id('A2'), 'A2 post');

INSERT INTO public.likes (post_id, user_id) VALUES (pg_temp.id('X2'), pg_temp.id('A1'));

INSERT INTO public.comments (id, post_id, user_id, body) VALUES
    (pg_temp.id('K1'), pg_temp.id('X2'), pg_temp.id('A1'), 'Nice one');

INSERT INTO public.follows (follower, followee) VALUES (pg_temp.id('A1'), pg_temp.id('P2'));

INSERT INTO public.activities (id, user_id, actor_id, activity_type) VALUES
    (pg_temp.id('T1'), pg_temp.id('A1'), pg_temp.id('A2'), 'follow');

INSERT INTO public.parent_activities (id, family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id) VALUES
    (pg_temp.id('PA1'), pg_temp.id('F1'), pg_temp.id('P1'), 'points_adjusted', 'points', pg_temp.id('A1'));

-- The statements ------------------------------------------------------------------------

CREATE TEMP TABLE statements (tbl text PRIMARY KEY, sel text, ins text, upd text, del text);
INSERT INTO statements VALUES
    ('profiles',
     'SELECT count(*) FROM public.profiles WHERE user_id = {A1}',
     'INSERT INTO public.profiles (user_id, username, role) VALUES ({N}, ''rls_n'', ''athlete'')',
     'UPDATE public.profiles SET full_name = ''Renamed'' WHERE user_id = {A1}',
     'DELETE FROM public.profiles WHERE user_id = {A1}'),
    ('family_units',
     'SELECT count(*) FROM public.family_units WHERE id = {F1}',
     'INSERT INTO public.family_units (name) VALUES (''Another family'')',
     'UPDATE public.family_units SET name = ''Renamed'' WHERE id = {F1}',
     'DELETE FROM public.family_units WHERE id = {F1}'),
    ('family_members',
     'SELECT count(*) FROM public.family_members WHERE family_unit_id = {F1} AND user_id = {A1}',
     'INSERT INTO public.family_members (family_unit_id, user_id, role) VALUES ({F1}, {A2}, ''athlete'')',
     'UPDATE public.family_members SET role = ''parent'' WHERE family_unit_id = {F1} AND user_id = {A1}',
     'DELETE FROM public.family_members WHERE family_unit_id = {F1} AND user_id = {A1}'),
    ('schools',
     'SELECT count(*) FROM public.schools WHERE id = {S1}',
     'INSERT INTO public.schools (family_unit_id, user_id, name) VALUES ({F1}, {A1}, ''New U'')',
     'UPDATE public.schools SET status = ''contacted'' WHERE id = {S1}',
     'DELETE FROM public.schools WHERE id = {S1}'),
    ('coaches',
     'SELECT count(*) FROM public.coaches WHERE id = {C1}',
     'INSERT INTO public.coaches (school_id, first_name, last_name) VALUES ({S1}, ''New'', ''Coach'')',
     'UPDATE public.coaches SET email = ''coach@rls.test'' WHERE id = {C1}',
     'DELETE FROM public.coaches WHERE id = {C1}'),
    ('interactions',
     'SELECT count(*) FROM public.interactions WHERE id = {I1}',
     'INSERT INTO public.interactions (family_unit_id, user_id, logged_by, school_id, coach_id, type, direction) VALUES ({F1}, {A1}, {A1}, {S1}, {C1}, ''phone_call'', ''inbound'')',
     'UPDATE public.interactions SET subject = ''Edited'' WHERE id = {I1}',
     'DELETE FROM public.interactions WHERE id = {I1}'),
    ('school_status_history',
     'SELECT count(*) FROM public.school_status_history WHERE id = {H1}',
     'INSERT INTO public.school_status_history (school_id, previous_status, new_status, changed_by) VALUES ({S1}, ''contacted'', ''interested'', {A1})',
     'UPDATE public.school_status_history SET notes = ''Edited'' WHERE id = {H1}',
     'DELETE FROM public.school_status_history WHERE id = {H1}'),
    ('documents',
     'SELECT count(*) FROM public.documents WHERE id = {D1}',
     'INSERT INTO public.documents (user_id, family_unit_id, title, type) VALUES ({A1}, {F1}, ''Scores'', ''test_scores'')',
     'UPDATE public.documents SET title = ''Edited'' WHERE id = {D1}',
     'DELETE FROM public.documents WHERE id = {D1}'),
    ('events',
     'SELECT count(*) FROM public.events WHERE id = {E1}',
     'INSERT INTO public.events (user_id, school_id, type, name, start_date) VALUES ({A1}, {S1}, ''visit'', ''Visit'', now())',
     'UPDATE public.events SET name = ''Edited'' WHERE id = {E1}',
     'DELETE FROM public.events WHERE id = {E1}'),
    ('offers',
     'SELECT count(*) FROM public.offers WHERE id = {O1}',
     'INSERT INTO public.offers (athlete_id, school_id, offer_type, offer_date) VALUES ({A1}, {S1}, ''full_scholarship'', now())',
     'UPDATE public.offers SET offer_type = ''partial_scholarship'' WHERE id = {O1}',
     'DELETE FROM public.offers WHERE id = {O1}'),
    ('posts',
     'SELECT count(*) FROM public.posts WHERE id = {X1}',
     'INSERT INTO public.posts (author, caption) VALUES ({A1}, ''Another post'')',
     'UPDATE public.posts SET caption = ''Edited'' WHERE id = {X1}',
     'DELETE FROM public.posts WHERE id = {X1}'),
    ('likes',
     'SELECT count(*) FROM public.likes WHERE post_id = {X2} AND user_id = {A1}',
     'INSERT INTO public.likes (post_id, user_id) VALUES ({X1}, {A1})',
     'UPDATE public.likes SET created_at = now() WHERE post_id = {X2} AND user_id = {A1}',
     'DELETE FROM public.likes WHERE post_id = {X2} AND user_id = {A1}'),
    ('comments',
     'SELECT count(*) FROM public.comments WHERE id = {K1}',
     'INSERT INTO public.comments (post_id, user_id, body) VALUES ({X2}, {A1}, ''Again'')',
     'UPDATE public.comments SET body = ''Edited'' WHERE id = {K1}',
     'DELETE FROM public.comments WHERE id = {K1}'),
    ('follows',
     'SELECT count(*) FROM public.follows WHERE follower = {A1} AND followee = {P2}',
     'INSERT INTO public.follows (follower, followee) VALUES ({A1}, {A2})',
     'UPDATE public.follows SET created_at = now() WHERE follower = {A1} AND followee = {P2}',
     'DELETE FROM public.follows WHERE follower = {A1} AND followee = {P2}'),
    ('activities',
     'SELECT count(*) FROM public.activities WHERE id = {T1}',
     'INSERT INTO public.activities (user_id, actor_id, activity_type) VALUES ({A1}, {A2}, ''follow'')',
     'UPDATE public.activities SET is_read = true WHERE id = {T1}',
     'DELETE FROM public.activities WHERE id = {T1}'),
    ('parent_activities',
     'SELECT count(*) FROM public.parent_activities WHERE id = {PA1}',
     'INSERT INTO public.parent_activities (family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id) VALUES ({F1}, {P1}, ''settings_updated'', ''family_settings'', {F1})',
     'UPDATE public.parent_activities SET device_id = ''edited'' WHERE id = {PA1}',
     'DELETE FROM public.parent_activities WHERE id = {PA1}');

-- The matrix ----------------------------------------------------------------------------
-- One letter per actor: owner, other user, parent of the family, parent of
-- another family, anon. Y = allowed, N = denied.

CREATE TEMP TABLE matrix (
    ord          int  PRIMARY KEY,
    tbl          text NOT NULL REFERENCES statements,
    owner        text NOT NULL,   -- cast name of the owner
    family_parent text NOT NULL,  -- cast name of the parent of the family
    insert_owner text NOT NULL,   -- the owner of the row the INSERT creates
    sel text NOT NULL, ins text NOT NULL, upd text NOT NULL, del text NOT NULL
);
INSERT INTO matrix VALUES
--   ord  table                    owner  parent insert  SELECT   INSERT   UPDATE   DELETE
    ( 1, 'profiles',              'A1',  'P1',  'N',    'YYYYN', 'YNNNN', 'YNNNN', 'YNNNN'),
    ( 2, 'family_units',          'A1',  'P1',  'A1',   'YNYNN', 'NNNNN', 'NNYNN', 'NNNNN'),
    ( 3, 'family_members',        'A1',  'P1',  'A1',   'YNYNN', 'NNNNN', 'NNNNN', 'NNNNN'),
    ( 4, 'schools',               'A1',  'P1',  'A1',   'YNYNN', 'YNNNN', 'YNNNN', 'YNNNN'),
    ( 5, 'coaches',               'A1',  'P1',  'A1',   'YNYNN', 'YNNNN', 'YNNNN', 'YNNNN'),
    ( 6, 'interactions',          'A1',  'P1',  'A1',   'YNYNN', 'YNNNN', 'YNNNN', 'YNNNN'),
    ( 7, 'school_status_history', 'A1',  'P1',  'A1',   'YNYNN', 'YNNNN', 'YNNNN', 'YNNNN'),
    ( 8, 'documents',             'A1',  'P1',  'A1',   'YNYNN', 'YNNNN', 'YNNNN', 'YNNNN'),
    ( 9, 'events',                'A1',  'P1',  'A1',   'YNYNN', 'YNNNN', 'YNNNN', 'YNNNN'),
    (10, 'offers',                'A1',  'P1',  'A1',   'YNYNN', 'YNNNN', 'YNNNN', 'YNNNN'),
    (11, 'posts',                 'A1',  'P1',  'A1',   'YYYYN', 'YNNNN', 'YNNNN', 'YNNNN'),
    (12, 'likes',                 'A1',  'P1',  'A1',   'YYYYN', 'YNNNN', 'YNNNN', 'YNNNN'),
    (13, 'comments',              'A1',  'P1',  'A1',   'YYYYN', 'YNNNN', 'YNNNN', 'YNNNN'),
    (14, 'follows',               'A1',  'P1',  'A1',   'YYYYN', 'YNNNN', 'YNNNN', 'YNNNN'),
    (15, 'activities',            'A1',  'P1',  'A1',   'YNNNN', 'NNNNN', 'YNNNN', 'YNNNN'),
    (16, 'parent_activities',     'P1',  'P1b', 'P1',   'YNYNN', 'YNNNN', 'NNNNN', 'NNNNN');

SELECT is(
    pg_temp.attempt(actor.id, op.stmt),
    CASE substr(op.expected, actor.pos, 1) WHEN 'Y' THEN 'allowed' ELSE 'denied' END,
    format('%s: %s by %s', m.tbl, op.name, actor.label)
)
  FROM matrix AS m
  JOIN statements AS s USING (tbl)
 CROSS JOIN LATERAL (VALUES
        (1, 'SELECT', s.sel, m.sel, m.owner),
        (2, 'INSERT', s.ins, m.ins, m.insert_owner),
        (3, 'UPDATE', s.upd, m.upd, m.owner),
        (4, 'DELETE', s.del, m.del, m.owner)
     ) AS op (ord, name, stmt, expected, owner)
 CROSS JOIN LATERAL (VALUES
        (1, 'owner',                    pg_temp.id(op.owner)),
        (2, 'other user',               pg_temp.id('A2')),
        (3, 'parent of the family',     pg_temp.id(m.family_parent)),
        (4, 'parent of another family', pg_temp.id('P2')),
        (5, 'anon',                     NULL::uuid)
     ) AS actor (pos, label, id)
 ORDER BY m.ord, op.ord, actor.pos;

-- Rules beyond the matrix (19 tests) ------------------------------------------------------

SELECT is(pg_temp.attempt(pg_temp.id('A1'), 'SELECT count(*) FROM public.parent_activities WHERE id = {PA1}'),
          'denied', 'parent_activities: an athlete of the family does not see them');
SELECT is(pg_temp.attempt(pg_temp.id('P1b'),
          'INSERT INTO public.parent_activities (family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id) VALUES ({F1}, {P1b}, ''reward_redeemed'', ''reward'', {F1})'),
          'allowed', 'parent_activities: a co-parent records an activity as themselves');
SELECT is(pg_temp.attempt(pg_temp.id('P2'),
          'INSERT INTO public.parent_activities (family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id) VALUES ({F1}, {P2}, ''reward_redeemed'', ''reward'', {F1})'),
          'denied', 'parent_activities: nobody records into another family''s log');

SELECT is(pg_temp.attempt(pg_temp.id('P1'),
          'INSERT INTO public.interactions (family_unit_id, user_id, logged_by, type, direction) VALUES ({F1}, {P1}, {P1}, ''email'', ''outbound'')'),
          'denied', 'interactions: a parent may not insert, even for themselves');
SELECT is(pg_temp.attempt(pg_temp.id('A1'),
          'INSERT INTO public.interactions (family_unit_id, user_id, logged_by, type, direction) VALUES ({F2}, {A1}, {A1}, ''email'', ''outbound'')'),
          'denied', 'interactions: an athlete may not insert into another family');
SELECT is(pg_temp.attempt(pg_temp.id('A1'),
          'INSERT INTO public.interactions (family_unit_id, user_id, logged_by, school_id, type, direction) VALUES ({F1}, {A1}, {A1}, {S2}, ''email'', ''outbound'')'),
          'denied', 'interactions: an athlete may not point at another family''s school');
SELECT is(pg_temp.attempt(pg_temp.id('A1'),
          'INSERT INTO public.interactions (family_unit_id, user_id, logged_by, type, direction) VALUES ({F1}, {A2}, {A1}, ''email'', ''outbound'')'),
          'denied', 'interactions: an athlete may not log one for somebody else');
SELECT is(pg_temp.attempt(pg_temp.id('A1'),
          'INSERT INTO public.interactions (family_unit_id, user_id, logged_by, type, direction) VALUES ({F1}, {A1}, {A1}, ''dm'', ''inbound'')'),
          'allowed', 'interactions: an athlete logs one with no school or coach');

SELECT is(pg_temp.attempt(pg_temp.id('P1'), 'SELECT count(*) FROM public.documents WHERE id = {D2}'),
          'allowed', 'documents: a parent sees the co-parent''s family document');
SELECT is(pg_temp.attempt(pg_temp.id('A1'), 'SELECT count(*) FROM public.documents WHERE id = {D2}'),
          'denied', 'documents: an athlete sees only their own documents');

SELECT is(pg_temp.attempt(pg_temp.id('A1'), 'UPDATE public.profiles SET role = ''parent'' WHERE user_id = {A1}'),
          'denied', 'profiles: a user may not change their own role');
SELECT is(pg_temp.attempt(pg_temp.id('A1'), 'UPDATE public.activities SET actor_id = {A1} WHERE id = {T1}'),
          'denied', 'activities: the recipient may change is_read only');

-- As A1, then as P1 (the ids of the cast, spelled out).
SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "ab000000-0000-4000-8000-000000000013", "role": "authenticated"}';
SELECT throws_ok(
    format($$INSERT INTO public.activities (user_id, actor_id, activity_type) VALUES (%L, %L, 'like')$$,
           pg_temp.id('A1'), pg_temp.id('A2')),
    '42501', NULL,
    'activities: a direct INSERT by authenticated is refused, even for oneself');
SELECT results_eq(
    'SELECT family_unit_id, role FROM private.my_family_units',
    format($$VALUES (%L::uuid, 'athlete'::text)$$, pg_temp.id('F1')),
    'private.my_family_units shows the requesting user''s memberships only');
SET LOCAL request.jwt.claims TO '{"sub": "ab000000-0000-4000-8000-000000000011", "role": "authenticated"}';
SELECT set_eq(
    'SELECT user_id FROM private.my_parented_users',
    format($$VALUES (%L::uuid), (%L::uuid)$$, pg_temp.id('A1'), pg_temp.id('N')),
    'private.my_parented_users shows the athletes of the requesting parent''s families');
RESET ROLE;

SELECT is(pg_temp.attempt(NULL, 'SELECT count(*) FROM private.my_family_units'),
          'denied', 'private views: anon may not read them');
SELECT is(pg_temp.attempt(pg_temp.id('A1'), 'SELECT count(*) FROM realtime.changes'),
          'denied', 'realtime.changes: authenticated may not read it');
SELECT is(pg_temp.attempt('service_role', NULL, 'SELECT count(*) FROM realtime.changes'),
          'allowed', 'realtime.changes: service_role reads it');
SELECT is(pg_temp.attempt('service_role', NULL, pg_temp.fill('SELECT count(*) FROM public.interactions WHERE id = {I1}')),
          'allowed', 'service_role bypasses RLS');

SELECT * FROM finish();
ROLLBACK;

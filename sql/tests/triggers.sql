-- Trigger behaviour: the six activity triggers of seed 001, the coach's
-- last_contact_date, interactions.updated_at, delete behaviour, and the
-- realtime change trigger (including a row far over NOTIFY's 8000 bytes).
-- The social and interaction writes run as `authenticated` users, through
-- RLS, the way the apps make them.
-- Creates its own users; does not depend on the demo data.

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;

SELECT plan(53);

-- Cast: U1 athlete (post author), U2 and U3 other users; family F with U1.
--   U1 bb000000-0000-4000-8000-000000000001
--   U2 bb000000-0000-4000-8000-000000000002
--   U3 bb000000-0000-4000-8000-000000000003
INSERT INTO auth.users (id, email) VALUES
    ('bb000000-0000-4000-8000-000000000001', 'u1@triggers.test'),
    ('bb000000-0000-4000-8000-000000000002', 'u2@triggers.test'),
    ('bb000000-0000-4000-8000-000000000003', 'u3@triggers.test');
INSERT INTO public.profiles (user_id, username, role) VALUES
    ('bb000000-0000-4000-8000-000000000001', 'trg_u1', 'athlete'),
    ('bb000000-0000-4000-8000-000000000002', 'trg_u2', NULL),
    ('bb000000-0000-4000-8000-000000000003', 'trg_u3', NULL);
INSERT INTO public.family_units (id, name) VALUES ('bbf00000-0000-4000-8000-000000000001', 'Trigger family');
INSERT INTO public.family_members (family_unit_id, user_id, role) VALUES
    ('bbf00000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000001', 'athlete');
INSERT INTO public.schools (id, family_unit_id, user_id, name) VALUES
    ('bb500000-0000-4000-8000-000000000001', 'bbf00000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000001', 'Trigger U');
INSERT INTO public.coaches (id, school_id, first_name, last_name) VALUES
    ('bbc00000-0000-4000-8000-000000000001', 'bb500000-0000-4000-8000-000000000001', 'Terry', 'Trigger');
INSERT INTO public.posts (id, author, caption) VALUES
    ('bbb00000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000001', 'U1 post');

-- The six triggers and their functions (12) ----------------------------------------------

SELECT trigger_is('public', 'likes',    'on_like_created',    'public', 'create_like_activity');
SELECT trigger_is('public', 'likes',    'on_like_deleted',    'public', 'delete_like_activity');
SELECT trigger_is('public', 'comments', 'on_comment_created', 'public', 'create_comment_activity');
SELECT trigger_is('public', 'comments', 'on_comment_deleted', 'public', 'delete_comment_activity');
SELECT trigger_is('public', 'follows',  'on_follow_created',  'public', 'create_follow_activity');
SELECT trigger_is('public', 'follows',  'on_follow_deleted',  'public', 'delete_follow_activity');
SELECT is_definer('public', f, format('%s is SECURITY DEFINER', f))
  FROM unnest(ARRAY['create_like_activity', 'delete_like_activity', 'create_comment_activity',
                    'delete_comment_activity', 'create_follow_activity', 'delete_follow_activity']) AS f;

-- Likes (7) ------------------------------------------------------------------------------

SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000002", "role": "authenticated"}';
SELECT lives_ok(
    $$INSERT INTO public.likes (post_id, user_id) VALUES ('bbb00000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000002')$$,
    'U2 likes U1''s post through RLS');
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000003", "role": "authenticated"}';
INSERT INTO public.likes (post_id, user_id) VALUES ('bbb00000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000003');
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000001", "role": "authenticated"}';
INSERT INTO public.likes (post_id, user_id) VALUES ('bbb00000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000001');
SELECT results_eq(
    $$SELECT actor_id, activity_type, post_id, comment_id, is_read
        FROM public.activities ORDER BY actor_id$$,
    $$VALUES ('bb000000-0000-4000-8000-000000000002'::uuid, 'like'::text, 'bbb00000-0000-4000-8000-000000000001'::uuid, NULL::uuid, false),
             ('bb000000-0000-4000-8000-000000000003'::uuid, 'like'::text, 'bbb00000-0000-4000-8000-000000000001'::uuid, NULL::uuid, false)$$,
    'a like creates an unread activity for the post''s author, a self-like none; the recipient sees them');
RESET ROLE;

SELECT is(
    (SELECT count(*)::int FROM public.activities WHERE actor_id = 'bb000000-0000-4000-8000-000000000001'),
    0, 'no activity for liking one''s own post');
SELECT is(
    (SELECT a.created_at FROM public.activities AS a
      WHERE a.actor_id = 'bb000000-0000-4000-8000-000000000002' AND a.activity_type = 'like'),
    (SELECT l.created_at FROM public.likes AS l
      WHERE l.user_id = 'bb000000-0000-4000-8000-000000000002'),
    'the activity carries the time of the like');

SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000002", "role": "authenticated"}';
SELECT is_empty('SELECT * FROM public.activities', 'the actor does not see the recipient''s activities');
DELETE FROM public.likes WHERE post_id = 'bbb00000-0000-4000-8000-000000000001' AND user_id = 'bb000000-0000-4000-8000-000000000002';
RESET ROLE;

SELECT is(
    (SELECT count(*)::int FROM public.activities
      WHERE actor_id = 'bb000000-0000-4000-8000-000000000002' AND activity_type = 'like'),
    0, 'unlike removes the like activity');
SELECT is(
    (SELECT count(*)::int FROM public.activities
      WHERE actor_id = 'bb000000-0000-4000-8000-000000000003' AND activity_type = 'like'),
    1, 'unlike leaves other users'' like activities alone');

-- Comments (4) ---------------------------------------------------------------------------

SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000002", "role": "authenticated"}';
INSERT INTO public.comments (id, post_id, user_id, body) VALUES
    ('bbcd0000-0000-4000-8000-000000000001', 'bbb00000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000002', 'Great shot');
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000001", "role": "authenticated"}';
INSERT INTO public.comments (id, post_id, user_id, body) VALUES
    ('bbcd0000-0000-4000-8000-000000000002', 'bbb00000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000001', 'Thanks!');
RESET ROLE;

SELECT results_eq(
    $$SELECT user_id, actor_id, post_id, comment_id FROM public.activities
       WHERE activity_type = 'comment' AND user_id = 'bb000000-0000-4000-8000-000000000001'$$,
    $$VALUES ('bb000000-0000-4000-8000-000000000001'::uuid, 'bb000000-0000-4000-8000-000000000002'::uuid,
              'bbb00000-0000-4000-8000-000000000001'::uuid, 'bbcd0000-0000-4000-8000-000000000001'::uuid)$$,
    'a comment creates an activity with post and comment for the post''s author');
SELECT is(
    (SELECT count(*)::int FROM public.activities WHERE comment_id = 'bbcd0000-0000-4000-8000-000000000002'),
    0, 'no activity for commenting on one''s own post');

SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000002", "role": "authenticated"}';
SELECT lives_ok(
    $$DELETE FROM public.comments WHERE id = 'bbcd0000-0000-4000-8000-000000000001'$$,
    'U2 deletes the comment through RLS');
RESET ROLE;
SELECT is(
    (SELECT count(*)::int FROM public.activities
      WHERE activity_type = 'comment' AND user_id = 'bb000000-0000-4000-8000-000000000001'),
    0, 'deleting the comment removes its activity');

-- Follows (4) ----------------------------------------------------------------------------

SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000002", "role": "authenticated"}';
INSERT INTO public.follows (follower, followee) VALUES ('bb000000-0000-4000-8000-000000000002', 'bb000000-0000-4000-8000-000000000001');
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000001", "role": "authenticated"}';
INSERT INTO public.follows (follower, followee) VALUES ('bb000000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000001');
RESET ROLE;

SELECT results_eq(
    $$SELECT user_id, actor_id, post_id, comment_id FROM public.activities
       WHERE activity_type = 'follow' AND user_id = 'bb000000-0000-4000-8000-000000000001'$$,
    $$VALUES ('bb000000-0000-4000-8000-000000000001'::uuid, 'bb000000-0000-4000-8000-000000000002'::uuid, NULL::uuid, NULL::uuid)$$,
    'a follow creates an activity for the followee; following oneself creates none');

SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000002", "role": "authenticated"}';
SELECT lives_ok(
    $$DELETE FROM public.follows WHERE follower = 'bb000000-0000-4000-8000-000000000002' AND followee = 'bb000000-0000-4000-8000-000000000001'$$,
    'U2 unfollows through RLS');
RESET ROLE;
SELECT is(
    (SELECT count(*)::int FROM public.activities
      WHERE activity_type = 'follow' AND user_id = 'bb000000-0000-4000-8000-000000000001'),
    0, 'unfollow removes the follow activity');
SELECT is(
    (SELECT count(*)::int FROM public.follows WHERE follower = 'bb000000-0000-4000-8000-000000000001'),
    1, 'the self-follow itself was stored');

-- Interactions: coach last contact, updated_at, deletes (8) ------------------------------------------

SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000001", "role": "authenticated"}';
INSERT INTO public.interactions (id, family_unit_id, user_id, logged_by, school_id, coach_id, type, direction, subject, occurred_at) VALUES
    ('bb1a0000-0000-4000-8000-000000000001', 'bbf00000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000001',
     'bb000000-0000-4000-8000-000000000001', 'bb500000-0000-4000-8000-000000000001', 'bbc00000-0000-4000-8000-000000000001',
     'phone_call', 'outbound', 'First call', now() - interval '2 days');
RESET ROLE;
SELECT is(
    (SELECT last_contact_date FROM public.coaches WHERE id = 'bbc00000-0000-4000-8000-000000000001'),
    now() - interval '2 days',
    'logging an interaction sets the coach''s last_contact_date to when it happened');

SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000001", "role": "authenticated"}';
INSERT INTO public.interactions (family_unit_id, user_id, logged_by, school_id, coach_id, type, direction, occurred_at) VALUES
    ('bbf00000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000001',
     'bb500000-0000-4000-8000-000000000001', 'bbc00000-0000-4000-8000-000000000001', 'email', 'outbound', now() - interval '10 days');
RESET ROLE;
SELECT is(
    (SELECT last_contact_date FROM public.coaches WHERE id = 'bbc00000-0000-4000-8000-000000000001'),
    now() - interval '2 days',
    'logging an older interaction does not move last_contact_date back');

SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000001", "role": "authenticated"}';
INSERT INTO public.interactions (family_unit_id, user_id, logged_by, school_id, coach_id, type, direction, occurred_at) VALUES
    ('bbf00000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000001',
     'bb500000-0000-4000-8000-000000000001', 'bbc00000-0000-4000-8000-000000000001', 'text', 'inbound', NULL);
RESET ROLE;
SELECT is(
    (SELECT last_contact_date FROM public.coaches WHERE id = 'bbc00000-0000-4000-8000-000000000001'),
    now(),
    'with no occurred_at, the interaction''s created_at counts');

UPDATE public.interactions SET subject = 'Edited', updated_at = '2000-01-01'
 WHERE id = 'bb1a0000-0000-4000-8000-000000000001';
SELECT is(
    (SELECT updated_at FROM public.interactions WHERE id = 'bb1a0000-0000-4000-8000-000000000001'),
    now(), 'updating an interaction stamps updated_at');

DELETE FROM public.coaches WHERE id = 'bbc00000-0000-4000-8000-000000000001';
SELECT is(
    (SELECT count(*)::int FROM public.interactions
      WHERE user_id = 'bb000000-0000-4000-8000-000000000001' AND coach_id IS NULL AND school_id IS NOT NULL),
    3, 'deleting a coach keeps the interactions, without coach');
DELETE FROM public.schools WHERE id = 'bb500000-0000-4000-8000-000000000001';
SELECT is(
    (SELECT count(*)::int FROM public.interactions
      WHERE user_id = 'bb000000-0000-4000-8000-000000000001' AND school_id IS NULL),
    3, 'deleting a school keeps the interactions, with no school ("Unknown School")');

SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000001", "role": "authenticated"}';
DELETE FROM public.interactions WHERE id = 'bb1a0000-0000-4000-8000-000000000001';
RESET ROLE;
SELECT is(
    (SELECT count(*)::int FROM public.interactions WHERE id = 'bb1a0000-0000-4000-8000-000000000001'),
    0, 'the owner deletes an interaction through RLS');
DELETE FROM public.family_units WHERE id = 'bbf00000-0000-4000-8000-000000000001';
SELECT is(
    (SELECT count(*)::int FROM public.interactions WHERE family_unit_id = 'bbf00000-0000-4000-8000-000000000001'),
    0, 'deleting a family deletes its interactions');

-- Realtime (18) ----------------------------------------------------------------------------

SELECT set_has(
    'SELECT relid::oid FROM realtime.enabled_tables',
    $$VALUES ('public.interactions'::regclass::oid), ('public.school_status_history'::regclass::oid),
             ('public.documents'::regclass::oid), ('public.activities'::regclass::oid),
             ('public.parent_activities'::regclass::oid)$$,
    'the five default tables are enabled for realtime');
SELECT is(
    (SELECT count(*)::int FROM pg_catalog.pg_trigger AS t
      WHERE t.tgname = 'realtime_changes'
        AND t.tgfoid = 'realtime.record_change()'::regprocedure
        AND t.tgrelid IN ('public.interactions'::regclass, 'public.school_status_history'::regclass,
                          'public.documents'::regclass, 'public.activities'::regclass,
                          'public.parent_activities'::regclass)),
    5, 'each of them has the realtime_changes trigger');
SELECT is_definer('realtime', 'record_change', 'realtime.record_change() is SECURITY DEFINER');

INSERT INTO public.family_units (id, name) VALUES ('bbf00000-0000-4000-8000-000000000002', 'Realtime family');
INSERT INTO public.family_members (family_unit_id, user_id, role) VALUES
    ('bbf00000-0000-4000-8000-000000000002', 'bb000000-0000-4000-8000-000000000001', 'athlete');

SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000001", "role": "authenticated"}';
INSERT INTO public.interactions (id, family_unit_id, user_id, logged_by, type, direction, subject) VALUES
    ('bb1a0000-0000-4000-8000-000000000009', 'bbf00000-0000-4000-8000-000000000002', 'bb000000-0000-4000-8000-000000000001',
     'bb000000-0000-4000-8000-000000000001', 'dm', 'inbound', 'Realtime probe');
UPDATE public.interactions SET subject = 'Realtime probe, edited' WHERE id = 'bb1a0000-0000-4000-8000-000000000009';
RESET ROLE;

SELECT results_eq(
    $$SELECT schema_name, table_name, type, record IS NOT NULL, old_record IS NOT NULL
        FROM realtime.changes
       WHERE coalesce(record, old_record) ->> 'id' = 'bb1a0000-0000-4000-8000-000000000009'
       ORDER BY id$$,
    $$VALUES ('public'::text, 'interactions'::text, 'INSERT'::text, true, false),
             ('public', 'interactions', 'UPDATE', true, true)$$,
    'an athlete''s INSERT and UPDATE are recorded in realtime.changes, in order');
SELECT is(
    (SELECT c.record FROM realtime.changes AS c
      WHERE c.type = 'UPDATE' AND c.record ->> 'id' = 'bb1a0000-0000-4000-8000-000000000009'),
    (SELECT to_jsonb(i) FROM public.interactions AS i WHERE i.id = 'bb1a0000-0000-4000-8000-000000000009'),
    'record is the whole new row as to_jsonb renders it');
SELECT is(
    (SELECT c.old_record ->> 'subject' FROM realtime.changes AS c
      WHERE c.type = 'UPDATE' AND c.record ->> 'id' = 'bb1a0000-0000-4000-8000-000000000009'),
    'Realtime probe', 'old_record is the row before the update');
SELECT is(
    (SELECT DISTINCT c.xid FROM realtime.changes AS c
      WHERE c.record ->> 'id' = 'bb1a0000-0000-4000-8000-000000000009'),
    pg_current_xact_id(), 'xid is the writing transaction');

DELETE FROM public.interactions WHERE id = 'bb1a0000-0000-4000-8000-000000000009';
SELECT results_eq(
    $$SELECT record IS NULL, old_record ->> 'id' FROM realtime.changes WHERE type = 'DELETE'
       AND old_record ->> 'id' = 'bb1a0000-0000-4000-8000-000000000009'$$,
    $$VALUES (true, 'bb1a0000-0000-4000-8000-000000000009'::text)$$,
    'a DELETE is recorded with old_record only');

SELECT cmp_ok(
    (SELECT count(*)::int FROM realtime.changes
      WHERE table_name = 'activities' AND record ->> 'user_id' = 'bb000000-0000-4000-8000-000000000001'),
    '>=', 3, 'activities written by the social triggers are recorded too');

-- A row far over NOTIFY's 8000-byte payload limit.
SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "bb000000-0000-4000-8000-000000000001", "role": "authenticated"}';
SELECT lives_ok(
    $$INSERT INTO public.documents (id, user_id, title, type)
      VALUES ('bbdc0000-0000-4000-8000-000000000001', 'bb000000-0000-4000-8000-000000000001', repeat('x', 20000), 'notes')$$,
    'a 20 000-byte row inserts fine');
RESET ROLE;
SELECT is(
    (SELECT octet_length(c.record ->> 'title') FROM realtime.changes AS c
      WHERE c.record ->> 'id' = 'bbdc0000-0000-4000-8000-000000000001'),
    20000, 'and its change is stored whole');

-- realtime.enable / realtime.disable on a fresh table.
CREATE TABLE public.realtime_probe (id int PRIMARY KEY, note text);
SELECT lives_ok($$SELECT realtime.enable('public.realtime_probe')$$, 'realtime.enable installs the trigger');
SELECT lives_ok($$SELECT realtime.enable('public.realtime_probe')$$, 'realtime.enable is idempotent');
SELECT is(
    (SELECT count(*)::int FROM pg_catalog.pg_trigger
      WHERE tgrelid = 'public.realtime_probe'::regclass AND tgname = 'realtime_changes'),
    1, 'one realtime_changes trigger after two enables');
SELECT is(
    (SELECT count(*)::int FROM realtime.enabled_tables WHERE relid = 'public.realtime_probe'::regclass),
    1, 'the table is registered once');
INSERT INTO public.realtime_probe VALUES (1, 'hello');
SELECT is(
    (SELECT count(*)::int FROM realtime.changes WHERE table_name = 'realtime_probe'),
    1, 'its changes are recorded');
SELECT realtime.disable('public.realtime_probe');
INSERT INTO public.realtime_probe VALUES (2, 'unheard');
SELECT results_eq(
    $$SELECT (SELECT count(*)::int FROM pg_catalog.pg_trigger
               WHERE tgrelid = 'public.realtime_probe'::regclass AND tgname = 'realtime_changes'),
             (SELECT count(*)::int FROM realtime.enabled_tables WHERE relid = 'public.realtime_probe'::regclass),
             (SELECT count(*)::int FROM realtime.changes WHERE table_name = 'realtime_probe')$$,
    $$VALUES (0, 0, 1)$$,
    'realtime.disable removes trigger and registration; later changes are not recorded');
SELECT throws_ok(
    $$SELECT realtime.enable('private.my_family_units')$$,
    '42809', NULL, 'realtime.enable refuses a view');

SELECT * FROM finish();
ROLLBACK;

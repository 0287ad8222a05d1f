-- Migration 0046: Supabase's opt-in, the `supabase_realtime` publication, is followed.
-- A table added to it is enabled for realtime (change trigger, enabled_tables) and its
-- changes are recorded; a table taken out of it is disabled; compass's own tables are in it;
-- dropping a published table or the publication's other statements never fail.

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;

SELECT plan(18);

SELECT ok(EXISTS (SELECT FROM pg_publication WHERE pubname = 'supabase_realtime'), 'the publication exists');
SELECT set_eq(
    $$SELECT tablename::text FROM pg_publication_tables WHERE pubname = 'supabase_realtime' AND schemaname = 'public'$$,
    ARRAY['interactions', 'school_status_history', 'documents', 'activities', 'parent_activities'],
    'it lists the tables realtime publishes');

CREATE TABLE public.pub_todos (id int PRIMARY KEY, task text);
CREATE TABLE public.pub_notes (id int PRIMARY KEY, body text);
CREATE FUNCTION pg_temp.enabled(t regclass) RETURNS boolean LANGUAGE sql AS
    $$SELECT EXISTS (SELECT FROM realtime.enabled_tables WHERE relid = t)
         AND EXISTS (SELECT FROM pg_trigger WHERE tgrelid = t AND tgname = 'realtime_changes')$$;

SELECT ok(NOT pg_temp.enabled('public.pub_todos'), 'a new table is not enabled');

ALTER PUBLICATION supabase_realtime ADD TABLE public.pub_todos;
SELECT ok(pg_temp.enabled('public.pub_todos'), 'ADD TABLE enables it');
INSERT INTO public.pub_todos VALUES (1, 'write tests');
SELECT is(
    (SELECT count(*)::int FROM realtime.changes WHERE table_name = 'pub_todos' AND type = 'INSERT'), 1,
    'and its changes are recorded');

ALTER PUBLICATION supabase_realtime ADD TABLE public.pub_notes;
SELECT ok(pg_temp.enabled('public.pub_notes'), 'a second ADD TABLE enables the new one');
SELECT is((SELECT count(*)::int FROM realtime.enabled_tables WHERE relid = 'public.pub_todos'::regclass), 1, 'once');

ALTER PUBLICATION supabase_realtime DROP TABLE public.pub_notes;
SELECT ok(NOT pg_temp.enabled('public.pub_notes'), 'DROP TABLE from the publication disables it');
SELECT ok(pg_temp.enabled('public.pub_todos'), 'and leaves the others');
UPDATE public.pub_notes SET body = 'x';
SELECT is((SELECT count(*)::int FROM realtime.changes WHERE table_name = 'pub_notes'), 0, 'its changes are no longer recorded');

ALTER PUBLICATION supabase_realtime SET TABLE public.pub_todos, public.pub_notes, public.interactions;
SELECT ok(pg_temp.enabled('public.pub_notes'), 'SET TABLE enables what it adds');
SELECT ok(pg_temp.enabled('public.pub_todos'), 'keeps what it keeps');
SELECT ok(NOT pg_temp.enabled('public.documents'), 'and disables what it leaves out');
SELECT ok(pg_temp.enabled('public.interactions'), 'a table it names again stays enabled');

SELECT lives_ok('DROP TABLE public.pub_notes', 'a published table can be dropped');

-- realtime.enable still works beside the publication, and leaves it alone.
SELECT realtime.enable('public.documents');
SELECT ok(pg_temp.enabled('public.documents'), 'realtime.enable still enables');
SELECT ok(
    NOT EXISTS (SELECT FROM pg_publication_tables WHERE pubname = 'supabase_realtime' AND tablename = 'documents'),
    'without touching the publication');

-- The plumbing is never enabled, even in a publication of every table.
ALTER PUBLICATION supabase_realtime ADD TABLES IN SCHEMA auth;
SELECT ok(NOT pg_temp.enabled('auth.users'), 'compass''s own schemas are not enabled through the publication');

SELECT * FROM finish();
ROLLBACK;

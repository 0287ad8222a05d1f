-- Migration 0046: Supabase's opt-in, the `supabase_realtime` publication, is followed.
-- A table added to it by name is enabled for realtime (change trigger, enabled_tables) and
-- its changes are recorded; a table taken out of it is disabled; compass's own tables are in
-- it; other DDL changes nothing; dropping a published table never fails.

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;

SELECT plan(23);

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

-- realtime.enable and realtime.disable still work beside the publication, and leave it alone.
SELECT realtime.enable('public.documents');
SELECT ok(pg_temp.enabled('public.documents'), 'realtime.enable still enables');
SELECT ok(
    NOT EXISTS (SELECT FROM pg_publication_tables WHERE pubname = 'supabase_realtime' AND tablename = 'documents'),
    'without touching the publication');
SELECT realtime.disable('public.pub_todos');
CREATE TABLE public.pub_unrelated (id int PRIMARY KEY);
ALTER PUBLICATION supabase_realtime ADD TABLE public.pub_unrelated;
SELECT ok(NOT pg_temp.enabled('public.pub_todos'), 'a disabled table stays disabled through other DDL');

-- Publications of whole schemas are not followed: compass's own tables never get a trigger this way.
ALTER PUBLICATION supabase_realtime ADD TABLES IN SCHEMA auth;
SELECT ok(NOT pg_temp.enabled('auth.users'), 'a schema added whole is not followed');

-- A statement about the publication that names no table enables nothing.
ALTER PUBLICATION supabase_realtime OWNER TO postgres;
SELECT ok(NOT pg_temp.enabled('public.pub_todos'), 'OWNER TO does not re-enable a disabled listed table');

-- Supabase's recipe: drop the publication, make it anew, add one's own tables. The app's feeds stay.
DROP PUBLICATION supabase_realtime;
SELECT ok(pg_temp.enabled('public.pub_unrelated'), 'DROP PUBLICATION disables nothing');
SELECT ok(pg_temp.enabled('public.interactions'), 'the app''s own feeds included');
SET LOCAL client_min_messages = error;  -- no wal_level warning
CREATE PUBLICATION supabase_realtime FOR TABLE public.pub_todos;
SELECT ok(pg_temp.enabled('public.pub_todos'), 'CREATE PUBLICATION … FOR TABLE enables them');

SELECT * FROM finish();
ROLLBACK;

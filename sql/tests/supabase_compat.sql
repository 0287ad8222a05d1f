-- Migration 0047: SQL written for a Supabase project finds its extensions without a schema,
-- and the API roles may use them in column defaults, as on Supabase.

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;

SELECT plan(6);

SELECT has_extension('extensions', 'uuid-ossp', 'uuid-ossp is in schema extensions');
SELECT is(
    (SELECT s.setconfig FROM pg_db_role_setting AS s JOIN pg_database AS d ON d.oid = s.setdatabase
      WHERE d.datname = current_database() AND s.setrole = 0),
    ARRAY['search_path=public, extensions'],
    'the database searches public, then extensions');
SELECT lives_ok('SELECT uuid_generate_v4(), gen_salt(''bf'')', 'Supabase''s functions resolve without a schema');

CREATE TABLE public.compat_notes (id uuid PRIMARY KEY DEFAULT uuid_generate_v4(), body text);
GRANT SELECT, INSERT ON public.compat_notes TO authenticated;
SET LOCAL ROLE authenticated;
SELECT lives_ok('INSERT INTO public.compat_notes (body) VALUES (''x'')', 'an API role inserts with such a default');
SELECT lives_ok('SELECT uuid_generate_v4()', 'and may call it by name (USAGE on extensions)');
RESET ROLE;
SELECT is((SELECT count(*)::int FROM public.compat_notes), 1, 'and the row has its id');

SELECT * FROM finish();
ROLLBACK;

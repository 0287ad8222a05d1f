-- Per-role statement timeouts (migration 0013): set on the roles as Supabase sets them, and
-- copied into a request's transaction by auth.apply_role_settings, a database's own setting
-- winning over the cluster-wide one; nothing but the timeouts is copied.
-- Does not depend on the demo data.

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;

SELECT plan(7);

SELECT results_eq(
    $$SELECT r.rolname::text COLLATE "default", c COLLATE "default"
        FROM pg_catalog.pg_db_role_setting s
        JOIN pg_catalog.pg_roles r ON r.oid = s.setrole
        CROSS JOIN LATERAL unnest(s.setconfig) AS c
       WHERE s.setdatabase = 0 AND r.rolname IN ('anon', 'authenticated', 'service_role') AND c LIKE 'statement\_timeout=%'
       ORDER BY r.rolname$$,
    $$VALUES ('anon', 'statement_timeout=3s'), ('authenticated', 'statement_timeout=8s')$$,
    'anon may run statements for 3 s, authenticated for 8 s, service_role without limit');

SELECT lives_ok(
    $$SELECT set_config('role', 'anon', true), auth.apply_role_settings('anon')$$,
    'anon may apply its own settings');
SELECT is(current_setting('statement_timeout'), '3s', 'an anon request runs under 3 s');
RESET ROLE;

SELECT auth.apply_role_settings('service_role');
SELECT is(current_setting('statement_timeout'), '3s', 'a role without settings changes nothing');

-- A database's own setting wins over the cluster-wide one.
SELECT set_config('statement_timeout', '0', true);
DO $$ BEGIN EXECUTE format('ALTER ROLE authenticated IN DATABASE %I SET statement_timeout = %L', current_database(), '1500ms'); END $$;
SELECT auth.apply_role_settings('authenticated');
SELECT is(current_setting('statement_timeout'), '1500ms', 'ALTER ROLE … IN DATABASE wins over the cluster-wide setting');

-- Only timeouts are copied: a role's search_path cannot change what the API's SQL means.
DO $$ BEGIN EXECUTE format('ALTER ROLE authenticated IN DATABASE %I SET search_path = %L', current_database(), 'hostile'); END $$;
SELECT auth.apply_role_settings('authenticated');
SELECT isnt(current_setting('search_path'), 'hostile', 'a role''s search_path is not copied');

SELECT ok(
    NOT has_function_privilege('public', 'auth.apply_role_settings(text)', 'EXECUTE'),
    'only the API roles may call auth.apply_role_settings');

SELECT * FROM finish();
ROLLBACK;

-- Per-role statement timeouts (migration 0013), set on the roles as Supabase sets them,
-- and no JIT for the API roles (0041).
-- Each request's scope statement copies its role's into the transaction (see the Swift
-- tests in Tests/CompassServerTests/RequestIsolationTests.swift for that and for a
-- database's own setting winning). Does not depend on the demo data.

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;

SELECT plan(3);

SELECT results_eq(
    $$SELECT r.rolname::text COLLATE "default", c COLLATE "default"
        FROM pg_catalog.pg_db_role_setting s
        JOIN pg_catalog.pg_roles r ON r.oid = s.setrole
        CROSS JOIN LATERAL unnest(s.setconfig) AS c
       WHERE s.setdatabase = 0 AND r.rolname IN ('anon', 'authenticated', 'service_role') AND c LIKE 'statement\_timeout=%'
       ORDER BY r.rolname$$,
    $$VALUES ('anon', 'statement_timeout=3s'), ('authenticated', 'statement_timeout=8s')$$,
    'anon may run statements for 3 s, authenticated for 8 s, service_role without limit');

SELECT results_eq(
    $$SELECT r.rolname::text COLLATE "default", c COLLATE "default"
        FROM pg_catalog.pg_db_role_setting s
        JOIN pg_catalog.pg_roles r ON r.oid = s.setrole
        CROSS JOIN LATERAL unnest(s.setconfig) AS c
       WHERE s.setdatabase = 0 AND r.rolname IN ('anon', 'authenticated', 'service_role') AND c LIKE 'jit=%'
       ORDER BY r.rolname$$,
    $$VALUES ('anon', 'jit=off'), ('authenticated', 'jit=off')$$,
    'requests as anon or authenticated are not JIT-compiled (compiling ignores cancels), service_role''s are');

SELECT ok(
    has_table_privilege('anon', 'pg_catalog.pg_db_role_setting', 'SELECT'),
    'the API roles can read role settings (the scope statement reads its role''s timeout)');

SELECT * FROM finish();
ROLLBACK;

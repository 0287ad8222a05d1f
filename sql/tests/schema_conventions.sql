-- Schema-wide conventions: roles, the auth helpers, timestamptz everywhere,
-- fixed search_path on every function but the inlined claim accessors,
-- SECURITY DEFINER functions closed to
-- the API roles, RLS on every table, an index behind every foreign key, and
-- the grants RLS relies on.
-- Does not depend on the demo data.

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;

SELECT plan(31);

-- Roles (5) --------------------------------------------------------------------------------

SELECT results_eq(
    $$SELECT rolname::text COLLATE "default", rolcanlogin, rolinherit, rolbypassrls, rolsuper
        FROM pg_catalog.pg_roles
       WHERE rolname IN ('anon', 'authenticated', 'service_role', 'authenticator')
       ORDER BY rolname$$,
    $$VALUES ('anon', false, false, false, false),
             ('authenticated', false, false, false, false),
             ('authenticator', true, false, false, false),
             ('service_role', false, false, true, false)$$,
    'the four Supabase roles exist with their attributes');
SELECT ok(pg_has_role('authenticator', 'anon', 'MEMBER'), 'authenticator may become anon');
SELECT ok(pg_has_role('authenticator', 'authenticated', 'MEMBER'), 'authenticator may become authenticated');
SELECT ok(pg_has_role('authenticator', 'service_role', 'MEMBER'), 'authenticator may become service_role');
SELECT ok(NOT has_table_privilege('authenticator', 'public.interactions', 'SELECT'),
          'authenticator itself holds no table privileges (NOINHERIT)');

-- auth helpers (9) -----------------------------------------------------------------------

SET LOCAL request.jwt.claims TO '';
SELECT is(auth.uid(), NULL, 'auth.uid() is NULL when no claims are set');
SET LOCAL request.jwt.claims TO '{"role": "anon"}';
SELECT is(auth.uid(), NULL, 'auth.uid() is NULL for a token without sub');
SET LOCAL request.jwt.claims TO '{"sub": "", "role": "anon"}';
SELECT is(auth.uid(), NULL, 'auth.uid() is NULL for an empty sub');
SET LOCAL request.jwt.claims TO '{"sub": "cc000000-0000-4000-8000-000000000001", "role": "authenticated", "email": "a@b.test"}';
SELECT is(auth.uid(), 'cc000000-0000-4000-8000-000000000001'::uuid, 'auth.uid() reads sub from request.jwt.claims');
SELECT is(auth.role(), 'authenticated', 'auth.role() reads the role claim');
SELECT is(auth.email(), 'a@b.test', 'auth.email() reads the email claim');
SELECT is(auth.jwt() ->> 'sub', 'cc000000-0000-4000-8000-000000000001', 'auth.jwt() is the whole claim set');
SET LOCAL request.jwt.claims TO '';
SET LOCAL request.jwt.claim.sub TO 'cc000000-0000-4000-8000-000000000002';
SET LOCAL request.jwt.claim.role TO 'authenticated';
SELECT is(auth.uid(), 'cc000000-0000-4000-8000-000000000002'::uuid, 'auth.uid() falls back to request.jwt.claim.sub');
SELECT is(auth.role(), 'authenticated', 'auth.role() falls back to request.jwt.claim.role');
SET LOCAL request.jwt.claim.sub TO '';
SET LOCAL request.jwt.claim.role TO '';

-- Column types (1) --------------------------------------------------------------------------

SELECT is_empty(
    $$SELECT format('%I.%I.%I', n.nspname, c.relname, a.attname)
        FROM pg_catalog.pg_attribute AS a
        JOIN pg_catalog.pg_class AS c ON c.oid = a.attrelid
        JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
       WHERE n.nspname IN ('public', 'auth', 'realtime', 'private')
         AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
         AND a.attnum > 0 AND NOT a.attisdropped
         AND a.atttypid IN ('timestamp'::regtype, 'timestamp[]'::regtype)$$,
    'no timestamp without time zone column in public, auth, realtime or private');

-- Functions (3) -----------------------------------------------------------------------------

SELECT is_empty(
    $$SELECT p.oid::regprocedure::text
        FROM pg_catalog.pg_proc AS p
        JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
       WHERE n.nspname IN ('public', 'auth', 'realtime', 'private')
         AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend AS d
                          WHERE d.classid = 'pg_catalog.pg_proc'::regclass
                            AND d.objid = p.oid AND d.deptype = 'e')
         AND NOT EXISTS (SELECT FROM unnest(p.proconfig) AS setting
                          WHERE setting LIKE 'search_path=%')
         AND p.oid NOT IN ('auth.jwt()'::regprocedure, 'auth.uid()'::regprocedure, 'auth.role()'::regprocedure,
                           'auth.email()'::regprocedure, 'auth.claim(text)'::regprocedure)$$,
    'every function in public, auth, realtime and private has a fixed search_path, but the claim accessors');

-- The claim accessors (4): no SET clause, so the planner inlines them into policies (0010).
-- In exchange they are plain SQL, not SECURITY DEFINER, and name nothing through search_path.
SELECT is_empty(
    $$SELECT p.proname::text
        FROM pg_catalog.pg_proc AS p
        JOIN pg_catalog.pg_language AS l ON l.oid = p.prolang
       WHERE p.pronamespace = 'auth'::regnamespace AND p.proname IN ('jwt', 'uid', 'role', 'email', 'claim')
         AND (p.prosecdef OR l.lanname <> 'sql' OR p.provolatile <> 's' OR p.proconfig IS NOT NULL)$$,
    'the claim accessors are stable SQL functions, not SECURITY DEFINER, without SET clauses');

-- A search_path that shadows current_setting and text <> must not change their answers.
CREATE SCHEMA hostile;
CREATE FUNCTION hostile.current_setting(text, boolean) RETURNS text
    LANGUAGE sql AS $$ SELECT '{"sub": "00000000-0000-4000-8000-0000000000ff", "role": "service_role"}' $$;
CREATE FUNCTION hostile.never_differs(text, text) RETURNS boolean LANGUAGE sql AS $$ SELECT false $$;
CREATE OPERATOR hostile.<> (LEFTARG = text, RIGHTARG = text, FUNCTION = hostile.never_differs);
CREATE FUNCTION hostile.glue(text, text) RETURNS text LANGUAGE sql AS $$ SELECT 'request.jwt.claims' $$;
CREATE OPERATOR hostile.|| (LEFTARG = text, RIGHTARG = text, FUNCTION = hostile.glue);
SELECT set_config('request.jwt.claims',
                  '{"sub": "a1000000-0000-4000-8000-000000000001", "role": "authenticated", "email": "m@example.com"}', true);
-- The answers are taken under the hostile path and compared after it (pgTAP itself would trip on it).
SET LOCAL search_path = hostile, pg_catalog, public;
CREATE TEMP TABLE accessor_answers AS
    SELECT 1 AS step, auth.uid()::text AS uid, auth.role() AS role, auth.email() AS email, auth.jwt() ->> 'sub' AS jwt_sub;
SELECT set_config('request.jwt.claims', '{"sub": "a1000000-0000-4000-8000-000000000001"}', true),
       set_config('request.jwt.claim.email', 'older@example.com', true);
INSERT INTO accessor_answers SELECT 2, auth.uid()::text, auth.role(), auth.email(), auth.jwt() ->> 'sub';
RESET search_path;
SELECT results_eq(
    $$SELECT uid, role, email, jwt_sub FROM accessor_answers ORDER BY step$$,
    $$VALUES ('a1000000-0000-4000-8000-000000000001', 'authenticated', 'm@example.com',
              'a1000000-0000-4000-8000-000000000001'),
             ('a1000000-0000-4000-8000-000000000001', NULL, 'older@example.com',
              'a1000000-0000-4000-8000-000000000001')$$,
    'the claim accessors read the real settings whatever the search_path, falling back to request.jwt.claim.<name>');
RESET search_path;

-- Inlined: a policy's auth.uid() becomes the setting read itself, not a function call.
CREATE FUNCTION pg_temp.plan_text(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    plan text := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (VERBOSE) ' || query LOOP
        plan := plan || line || E'\n';
    END LOOP;
    RETURN plan;
END
$$;
SET LOCAL ROLE authenticated;
SELECT ok(
    pg_temp.plan_text('SELECT id FROM public.activities') ~ 'current_setting'
        AND pg_temp.plan_text('SELECT id FROM public.activities') !~ 'uid\(\)',
    'auth.uid() is inlined into the activities policy');
RESET ROLE;

SELECT is_empty(
    $$SELECT p.oid::regprocedure::text || ' executable by ' || grantee.rolname
        FROM pg_catalog.pg_proc AS p
        JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
       CROSS JOIN (VALUES ('anon'), ('authenticated')) AS grantee (rolname)
       WHERE n.nspname IN ('public', 'auth', 'realtime', 'private')
         AND p.prosecdef
         AND has_function_privilege(grantee.rolname, p.oid, 'EXECUTE')$$,
    'no SECURITY DEFINER function is executable by anon or authenticated');
SELECT is_empty(
    $$SELECT p.oid::regprocedure::text
        FROM pg_catalog.pg_proc AS p
        JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
       CROSS JOIN LATERAL aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) AS acl
       WHERE n.nspname IN ('public', 'auth', 'realtime', 'private')
         AND p.prosecdef
         AND acl.grantee = 0
         AND acl.privilege_type = 'EXECUTE'$$,
    'no SECURITY DEFINER function is executable by PUBLIC');

-- Tables (6) --------------------------------------------------------------------------------

SELECT is_empty(
    $$SELECT c.oid::regclass::text
        FROM pg_catalog.pg_class AS c
        JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
       WHERE n.nspname IN ('public', 'auth', 'realtime')
         AND c.relkind IN ('r', 'p')
         AND NOT c.relrowsecurity$$,
    'row level security is enabled on every table in public, auth and realtime');
SELECT is_empty(
    $$SELECT format('%s (%s)', con.conrelid::regclass, con.conname)
        FROM pg_catalog.pg_constraint AS con
        JOIN pg_catalog.pg_namespace AS n ON n.oid = con.connamespace
       WHERE con.contype = 'f'
         AND n.nspname IN ('public', 'auth', 'realtime')
         AND NOT EXISTS (
             SELECT FROM pg_catalog.pg_index AS i
              WHERE i.indrelid = con.conrelid
                AND (i.indkey::int2[])[0:cardinality(con.conkey) - 1] @> con.conkey
                AND (i.indkey::int2[])[0:cardinality(con.conkey) - 1] <@ con.conkey)$$,
    'every foreign key is the leading part of an index');
SELECT is_empty(
    $$SELECT c.oid::regclass::text || ' for ' || r.rolname
        FROM pg_catalog.pg_class AS c
        JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
       CROSS JOIN (VALUES ('anon'), ('authenticated'), ('service_role')) AS r (rolname)
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
         AND NOT (has_table_privilege(r.rolname, c.oid, 'SELECT')
                  AND has_table_privilege(r.rolname, c.oid, 'INSERT')
                  AND has_table_privilege(r.rolname, c.oid, 'DELETE'))$$,
    'the API roles hold SELECT, INSERT and DELETE on every public table; RLS does the limiting');
SELECT is_empty(
    $$SELECT c.oid::regclass::text || ' for ' || r.rolname
        FROM pg_catalog.pg_class AS c
        JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
       CROSS JOIN (VALUES ('anon'), ('authenticated'), ('service_role')) AS r (rolname)
       WHERE n.nspname IN ('public', 'auth', 'realtime') AND c.relkind IN ('r', 'p')
         AND has_table_privilege(r.rolname, c.oid, 'TRUNCATE')$$,
    'no API role may TRUNCATE (it would bypass RLS)');
SELECT is_empty(
    $$SELECT c.oid::regclass::text || ' for ' || r.rolname
        FROM pg_catalog.pg_class AS c
        JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
       CROSS JOIN (VALUES ('anon'), ('authenticated')) AS r (rolname)
       WHERE n.nspname IN ('auth', 'realtime') AND c.relkind IN ('r', 'p')
         AND has_table_privilege(r.rolname, c.oid, 'SELECT, INSERT, UPDATE, DELETE')$$,
    'anon and authenticated have no privileges on auth and realtime tables');
SELECT is_empty(
    $$SELECT pol.polname::text
        FROM pg_catalog.pg_policy AS pol
       WHERE pol.polrelid = 'public.activities'::regclass
         AND pol.polcmd IN ('a', '*')$$,
    'activities has no INSERT policy');

-- Policies call auth.uid() once per statement (1) ---------------------------------------------

SELECT is_empty(
    $$SELECT format('%s.%s', pol.polrelid::regclass, pol.polname)
        FROM pg_catalog.pg_policy AS pol
        JOIN pg_catalog.pg_class AS c ON c.oid = pol.polrelid
        JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public'
         AND (regexp_replace(coalesce(pg_get_expr(pol.polqual, pol.polrelid), '') || ' ' ||
                             coalesce(pg_get_expr(pol.polwithcheck, pol.polrelid), ''),
                             '\(\s*SELECT auth\.uid\(\) AS uid\)', '', 'g') ~ 'auth\.uid\(\)')$$,
    'every policy wraps auth.uid() in a sub-select');

-- Parent activity types (2) -------------------------------------------------------------------

INSERT INTO auth.users (id) VALUES ('cc000000-0000-4000-8000-000000000003');
INSERT INTO public.family_units (id, name) VALUES ('ccf00000-0000-4000-8000-000000000001', 'Conventions family');
SELECT lives_ok(
    $$INSERT INTO public.parent_activities (family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id)
      SELECT 'ccf00000-0000-4000-8000-000000000001', 'cc000000-0000-4000-8000-000000000003', t, 'entity', gen_random_uuid()
        FROM unnest(ARRAY['app_categorization_added', 'app_categorization_modified', 'app_categorization_removed',
                          'points_adjusted', 'reward_redeemed', 'child_profile_modified',
                          'settings_updated', 'child_added']) AS t$$,
    'parent_activities accepts the eight activity types of seed 003');
SELECT throws_ok(
    $$INSERT INTO public.parent_activities (family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id)
      VALUES ('ccf00000-0000-4000-8000-000000000001', 'cc000000-0000-4000-8000-000000000003', 'appCategorizationAdded', 'entity', gen_random_uuid())$$,
    '23514', NULL, 'parent_activities rejects any other spelling');

-- authenticator is a bare login (1) ------------------------------------------------------------

SELECT ok(
    (SELECT NOT rolsuper AND NOT rolcreaterole AND NOT rolcreatedb FROM pg_catalog.pg_roles WHERE rolname = 'authenticator'),
    'authenticator has no administrative attributes');

SELECT * FROM finish();
ROLLBACK;

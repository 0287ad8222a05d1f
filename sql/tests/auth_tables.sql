-- /auth/v1's tables: supabase_auth_admin owns them and may switch in from
-- authenticator; the API roles cannot touch sessions or refresh tokens;
-- passwords are bcrypt hashes made by extensions.crypt.
-- Does not depend on the demo data.

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;

SELECT plan(24);

SELECT results_eq(
    $$SELECT rolcanlogin, rolinherit, rolbypassrls, rolsuper
        FROM pg_catalog.pg_roles WHERE rolname = 'supabase_auth_admin'$$,
    $$VALUES (false, false, false, false)$$,
    'supabase_auth_admin exists, cannot log in and bypasses nothing');
SELECT ok(pg_has_role('authenticator', 'supabase_auth_admin', 'MEMBER'), 'authenticator may become supabase_auth_admin');

SELECT table_owner_is('auth', 'users', 'supabase_auth_admin', 'supabase_auth_admin owns auth.users');
SELECT table_owner_is('auth', 'sessions', 'supabase_auth_admin', 'supabase_auth_admin owns auth.sessions');
SELECT table_owner_is('auth', 'refresh_tokens', 'supabase_auth_admin', 'supabase_auth_admin owns auth.refresh_tokens');

SELECT ok(NOT has_table_privilege(r, t, p), format('%s has no %s on %s', r, p, t))
  FROM unnest(ARRAY['anon', 'authenticated']) AS r,
       unnest(ARRAY['auth.sessions', 'auth.refresh_tokens']) AS t,
       unnest(ARRAY['SELECT']) AS p;
SELECT ok(NOT has_table_privilege('authenticated', 'auth.users', 'SELECT'), 'authenticated cannot read auth.users');

SELECT is(
    (SELECT count(*)::int FROM information_schema.columns
      WHERE table_schema = 'auth' AND table_name = 'refresh_tokens' AND column_name = 'token'),
    0, 'refresh tokens are stored only as a hash');

-- The auth code's own transaction: switch role, create an account, sign in.
SET LOCAL ROLE supabase_auth_admin;
INSERT INTO auth.users (id, email, encrypted_password)
VALUES ('fa000000-0000-4000-8000-000000000001', 'tap@example.com',
        extensions.crypt('correct horse', extensions.gen_salt('bf', 4)));
SELECT ok((SELECT encrypted_password LIKE '$2a$04$%' FROM auth.users WHERE email = 'tap@example.com'),
          'passwords are stored as bcrypt hashes');
SELECT ok((SELECT encrypted_password = extensions.crypt('correct horse', encrypted_password)
             FROM auth.users WHERE email = 'tap@example.com'), 'the right password matches its hash');
SELECT ok((SELECT encrypted_password <> extensions.crypt('wrong horse', encrypted_password)
             FROM auth.users WHERE email = 'tap@example.com'), 'a wrong password does not');
INSERT INTO auth.sessions (id, user_id) VALUES ('fa500000-0000-4000-8000-000000000001', 'fa000000-0000-4000-8000-000000000001');
SELECT lives_ok(
    $$INSERT INTO auth.refresh_tokens (token_hash, user_id, session_id)
      VALUES (encode(extensions.digest('opaque', 'sha256'), 'hex'), 'fa000000-0000-4000-8000-000000000001',
              'fa500000-0000-4000-8000-000000000001')$$,
    'supabase_auth_admin writes refresh tokens');
RESET ROLE;

-- 0012: an account whose metadata names a role or username gets its profile; others do not.
SET LOCAL ROLE supabase_auth_admin;
INSERT INTO auth.users (id, email, raw_user_meta_data) VALUES
    ('fb000000-0000-4000-8000-000000000001', 'nora@example.com', '{"role": "parent", "full_name": "Nora"}'),
    ('fb000000-0000-4000-8000-000000000002', 'plain@example.com', '{}'),
    ('fb000000-0000-4000-8000-000000000003', 'nora@example.org', '{"username": "nora", "role": "coach"}'),
    ('fb000000-0000-4000-8000-000000000004', 'nora2@example.org', '{"username": "nora"}');
RESET ROLE;
SELECT results_eq(
    $$SELECT username, full_name, role FROM public.profiles WHERE user_id = 'fb000000-0000-4000-8000-000000000001'$$,
    $$VALUES ('nora_fb000000'::text, 'Nora'::text, 'parent'::text)$$,
    'a sign-up with a role gets a profile named after the email');
SELECT is_empty(
    $$SELECT 1 FROM public.profiles WHERE user_id = 'fb000000-0000-4000-8000-000000000002'$$,
    'a sign-up without role or username gets no profile');
SELECT results_eq(
    $$SELECT username, role FROM public.profiles WHERE user_id = 'fb000000-0000-4000-8000-000000000003'$$,
    $$VALUES ('nora'::text, NULL::text)$$,
    'the requested username is used; an unknown role is left out');
SELECT results_eq(
    $$SELECT username FROM public.profiles WHERE user_id = 'fb000000-0000-4000-8000-000000000004'$$,
    $$VALUES ('nora2_fb000000'::text)$$,
    'a taken username falls back instead of failing the sign-up');

-- 0014: the sign-in attempt counters.
SELECT table_owner_is('auth', 'sign_in_attempts', 'supabase_auth_admin', 'supabase_auth_admin owns auth.sign_in_attempts');
SELECT ok((SELECT relrowsecurity FROM pg_catalog.pg_class WHERE oid = 'auth.sign_in_attempts'::regclass),
          'auth.sign_in_attempts has row-level security on');
SELECT ok(NOT has_table_privilege(r, 'auth.sign_in_attempts', 'SELECT'), format('%s cannot read sign-in attempts', r))
  FROM unnest(ARRAY['anon', 'authenticated']) AS r;
SET LOCAL ROLE supabase_auth_admin;
-- The statement the auth code runs per attempt (two keys, one statement), three times.
PREPARE attempt AS
    INSERT INTO auth.sign_in_attempts AS a (key, window_start, count)
    SELECT key, now(), 1 FROM unnest(ARRAY['email:tap@example.com', 'address:192.0.2.1']) WITH ORDINALITY AS k (key, position)
     ORDER BY position
    ON CONFLICT (key) DO UPDATE SET
        window_start = CASE WHEN a.window_start <= excluded.window_start - interval '300 seconds'
                            THEN excluded.window_start ELSE a.window_start END,
        count = CASE WHEN a.window_start <= excluded.window_start - interval '300 seconds'
                     THEN 1 ELSE a.count + 1 END
    RETURNING a.key, a.count;
EXECUTE attempt;
EXECUTE attempt;
SELECT results_eq('EXECUTE attempt', $$VALUES ('email:tap@example.com'::text, 3), ('address:192.0.2.1'::text, 3)$$,
                  'each attempt counts once on its email and on its address');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;

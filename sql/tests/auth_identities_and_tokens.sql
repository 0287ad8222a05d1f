-- /auth/v1's identities, mailed tokens and PKCE flows (0015-0018): owned by
-- supabase_auth_admin and closed to the API roles; an account's email identity
-- follows the account (made with it, verified with it, moved with its address).
-- Does not depend on the demo data.

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;

SELECT plan(14);

SELECT table_owner_is('auth', t, 'supabase_auth_admin', format('supabase_auth_admin owns auth.%s', t))
  FROM unnest(ARRAY['identities', 'one_time_tokens', 'flow_state']) AS t;

SELECT ok(NOT has_table_privilege(r, t, 'SELECT'), format('%s cannot read %s', r, t))
  FROM unnest(ARRAY['anon', 'authenticated']) AS r,
       unnest(ARRAY['auth.identities', 'auth.one_time_tokens', 'auth.flow_state']) AS t;

SET LOCAL ROLE supabase_auth_admin;
INSERT INTO auth.users (id, email, raw_user_meta_data)
VALUES ('fc000000-0000-4000-8000-000000000001', 'Ident@Example.com', '{"nickname": "id"}');
SELECT results_eq(
    $$SELECT provider, provider_id, email, identity_data ->> 'sub', (identity_data ->> 'email_verified')::boolean,
             identity_data ->> 'nickname'
        FROM auth.identities WHERE user_id = 'fc000000-0000-4000-8000-000000000001'$$,
    $$VALUES ('email', 'fc000000-0000-4000-8000-000000000001', 'ident@example.com',
              'fc000000-0000-4000-8000-000000000001', false, 'id')$$,
    'a new account gets its email identity, unverified, with its metadata');
UPDATE auth.users SET email_confirmed_at = now() WHERE id = 'fc000000-0000-4000-8000-000000000001';
SELECT ok((SELECT (identity_data ->> 'email_verified')::boolean FROM auth.identities
            WHERE user_id = 'fc000000-0000-4000-8000-000000000001'), 'confirming the address verifies the identity');
UPDATE auth.users SET email = 'moved@example.com' WHERE id = 'fc000000-0000-4000-8000-000000000001';
SELECT results_eq(
    $$SELECT count(*)::int, min(email) FROM auth.identities WHERE user_id = 'fc000000-0000-4000-8000-000000000001'$$,
    $$VALUES (1, 'moved@example.com')$$,
    'a changed address moves the one identity');
INSERT INTO auth.users (id, is_anonymous) VALUES ('fc000000-0000-4000-8000-000000000002', true);
SELECT is((SELECT count(*)::int FROM auth.identities WHERE user_id = 'fc000000-0000-4000-8000-000000000002'), 0,
          'an anonymous account has no identity');
SELECT throws_ok(
    $$INSERT INTO auth.one_time_tokens (user_id, token_type, token_hash, relates_to)
      VALUES ('fc000000-0000-4000-8000-000000000001', 'recovery_token', 'plain-token', 'moved@example.com')$$,
    '23514', NULL, 'only a 64-hex-digit hash fits token_hash');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;

-- 0001 roles and auth shim
--
-- The Supabase mirror: the four API roles and an `auth` schema whose helper
-- functions read the JWT claims the way Supabase's do, so that policies are
-- written exactly as on Supabase (`USING ((SELECT auth.uid()) = user_id)`).
--
-- A request is scoped the way PostgREST scopes it, inside one transaction:
--   SET LOCAL ROLE authenticated;
--   SELECT set_config('request.jwt.claims', '{"sub":"<uuid>","role":"authenticated"}', true);
--
-- Roles are cluster-wide while this file runs once per database (tests create
-- many databases in one cluster, sometimes at the same moment), so each role
-- statement tolerates the role or membership already existing, including when
-- a concurrent run created it after we looked.
-- authenticator holds no privileges of its own (NOINHERIT); it may only
-- switch to one of the API roles with SET ROLE.

DO $$
DECLARE
    statement text;
BEGIN
    FOREACH statement IN ARRAY ARRAY[
        'CREATE ROLE anon NOLOGIN NOINHERIT',
        'CREATE ROLE authenticated NOLOGIN NOINHERIT',
        'CREATE ROLE service_role NOLOGIN NOINHERIT BYPASSRLS',
        'CREATE ROLE authenticator LOGIN NOINHERIT',
        'GRANT anon TO authenticator',
        'GRANT authenticated TO authenticator',
        'GRANT service_role TO authenticator'
    ]
    LOOP
        BEGIN
            EXECUTE statement;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN
            NULL;  -- made by an earlier or a concurrent run
        END;
    END LOOP;
END
$$;

CREATE SCHEMA auth;

GRANT USAGE ON SCHEMA auth TO anon, authenticated, service_role;

CREATE TABLE auth.users (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    email      text        UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- No policies: the API roles never read accounts directly. Only service_role
-- (which bypasses RLS) manages them.
ALTER TABLE auth.users ENABLE ROW LEVEL SECURITY;

GRANT SELECT, INSERT, UPDATE, DELETE ON auth.users TO service_role;

-- The whole claim set of the current request, or NULL outside a request.
-- Reads `request.jwt.claims` (JSON) and falls back to the older single
-- `request.jwt.claim` setting.
CREATE FUNCTION auth.jwt() RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = ''
AS $$
    SELECT coalesce(
        nullif(current_setting('request.jwt.claims', true), ''),
        nullif(current_setting('request.jwt.claim', true), '')
    )::jsonb
$$;

-- The requesting user's id (the `sub` claim), or NULL when no user is set.
-- The older per-claim setting `request.jwt.claim.sub` is the fallback.
CREATE FUNCTION auth.uid() RETURNS uuid
LANGUAGE sql STABLE
SET search_path = ''
AS $$
    SELECT coalesce(
        nullif(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub', ''),
        nullif(current_setting('request.jwt.claim.sub', true), '')
    )::uuid
$$;

-- The requesting role (the `role` claim: anon, authenticated, service_role).
CREATE FUNCTION auth.role() RETURNS text
LANGUAGE sql STABLE
SET search_path = ''
AS $$
    SELECT coalesce(
        nullif(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role', ''),
        nullif(current_setting('request.jwt.claim.role', true), '')
    )
$$;

-- The requesting user's email (the `email` claim), as Supabase offers it.
CREATE FUNCTION auth.email() RETURNS text
LANGUAGE sql STABLE
SET search_path = ''
AS $$
    SELECT coalesce(
        nullif(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email', ''),
        nullif(current_setting('request.jwt.claim.email', true), '')
    )
$$;

GRANT EXECUTE ON FUNCTION auth.jwt(), auth.uid(), auth.role(), auth.email()
    TO anon, authenticated, service_role;

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
-- many databases in one cluster), so every role is created only when missing.

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'anon') THEN
        CREATE ROLE anon NOLOGIN NOINHERIT;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'authenticated') THEN
        CREATE ROLE authenticated NOLOGIN NOINHERIT;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'service_role') THEN
        CREATE ROLE service_role NOLOGIN NOINHERIT BYPASSRLS;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'authenticator') THEN
        CREATE ROLE authenticator LOGIN NOINHERIT;
    END IF;
    -- authenticator holds no privileges of its own (NOINHERIT); it may only
    -- switch to one of the API roles with SET ROLE.
    IF NOT pg_catalog.pg_has_role('authenticator', 'anon', 'MEMBER') THEN
        GRANT anon TO authenticator;
    END IF;
    IF NOT pg_catalog.pg_has_role('authenticator', 'authenticated', 'MEMBER') THEN
        GRANT authenticated TO authenticator;
    END IF;
    IF NOT pg_catalog.pg_has_role('authenticator', 'service_role', 'MEMBER') THEN
        GRANT service_role TO authenticator;
    END IF;
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

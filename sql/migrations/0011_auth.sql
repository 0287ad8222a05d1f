-- 0011 auth: the accounts, sessions and refresh tokens behind /auth/v1 (GoTrue).
--
-- auth.users gains the columns Supabase's auth server keeps (bcrypt password
-- hash, confirmation and sign-in times, app/user metadata). auth.sessions is
-- one signed-in device; auth.refresh_tokens is its chain of rotated refresh
-- tokens, of which only a SHA-256 hash is stored (the token itself is random
-- and opaque, so a leaked table cannot be replayed).
--
-- Access: these tables belong to the NOLOGIN role supabase_auth_admin, as on
-- Supabase. The worker connects as authenticator (or a superuser in tests) and
-- switches to supabase_auth_admin for each auth transaction with
-- set_config('role', 'supabase_auth_admin', true). anon and authenticated
-- get nothing here; service_role keeps its grants on auth.users only.
--
-- Passwords are hashed with pgcrypto's crypt(password, gen_salt('bf')),
-- installed in schema `extensions` and always called schema-qualified.

CREATE SCHEMA IF NOT EXISTS extensions;
CREATE EXTENSION IF NOT EXISTS pgcrypto WITH SCHEMA extensions;

-- Cluster-wide role, so created tolerantly (see 0001).
DO $$
DECLARE
    statement text;
BEGIN
    FOREACH statement IN ARRAY ARRAY[
        'CREATE ROLE supabase_auth_admin NOLOGIN NOINHERIT',
        'GRANT supabase_auth_admin TO authenticator'
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

GRANT USAGE ON SCHEMA auth TO supabase_auth_admin;
GRANT USAGE ON SCHEMA extensions TO supabase_auth_admin;

ALTER TABLE auth.users
    ADD COLUMN aud                text        NOT NULL DEFAULT 'authenticated',
    ADD COLUMN role               text        NOT NULL DEFAULT 'authenticated',
    ADD COLUMN encrypted_password text,
    ADD COLUMN email_confirmed_at timestamptz,
    ADD COLUMN last_sign_in_at    timestamptz,
    ADD COLUMN raw_app_meta_data  jsonb       NOT NULL DEFAULT '{"provider": "email", "providers": ["email"]}',
    ADD COLUMN raw_user_meta_data jsonb       NOT NULL DEFAULT '{}',
    ADD COLUMN phone              text,
    ADD COLUMN is_anonymous       boolean     NOT NULL DEFAULT false,
    ADD COLUMN updated_at         timestamptz NOT NULL DEFAULT now();

-- The owner bypasses the table's RLS (no policies: API roles never read accounts).
ALTER TABLE auth.users OWNER TO supabase_auth_admin;

CREATE TABLE auth.sessions (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    -- Past this moment the session can no longer be refreshed (NULL: no limit).
    not_after  timestamptz
);
CREATE INDEX sessions_user_id_idx ON auth.sessions (user_id);

CREATE TABLE auth.refresh_tokens (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- hex SHA-256 of the opaque token handed to the client; never the token itself
    token_hash text        NOT NULL UNIQUE,
    user_id    uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    session_id uuid        NOT NULL REFERENCES auth.sessions (id) ON DELETE CASCADE,
    -- the token_hash this one replaced (NULL for a session's first token)
    parent     text,
    revoked    boolean     NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_user_id_idx ON auth.refresh_tokens (user_id);
CREATE INDEX refresh_tokens_session_id_idx ON auth.refresh_tokens (session_id);

ALTER TABLE auth.sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE auth.refresh_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE auth.sessions OWNER TO supabase_auth_admin;
ALTER TABLE auth.refresh_tokens OWNER TO supabase_auth_admin;
REVOKE ALL ON auth.sessions, auth.refresh_tokens FROM PUBLIC, anon, authenticated;

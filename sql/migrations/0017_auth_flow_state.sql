-- 0017 auth flow state: PKCE for mailed links (RFC 7636), as GoTrue keeps it.
--
-- A client that signs up, recovers a password or asks for a magic link with a
-- `code_challenge` gets a flow state: when its mailed link is opened, /verify
-- redirects with `?code=` instead of putting a session in the URL, and only the
-- client holding the matching `code_verifier` can exchange that code for a session
-- (`/token?grant_type=pkce`). Only a SHA-256 hash of the code is stored.

CREATE TABLE auth.flow_state (
    id                    uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id               uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    -- hex SHA-256 of the code handed out at /verify; NULL until then
    auth_code_hash        text        UNIQUE,
    code_challenge_method text        NOT NULL CHECK (code_challenge_method IN ('s256', 'plain')),
    code_challenge        text        NOT NULL,
    provider_type         text        NOT NULL DEFAULT 'email',
    -- what the flow signs in by: email/signup, recovery, magiclink
    authentication_method text        NOT NULL,
    auth_code_issued_at   timestamptz,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX flow_state_user_id_idx ON auth.flow_state (user_id, authentication_method, created_at DESC);

ALTER TABLE auth.flow_state ENABLE ROW LEVEL SECURITY;
ALTER TABLE auth.flow_state OWNER TO supabase_auth_admin;
REVOKE ALL ON auth.flow_state FROM PUBLIC, anon, authenticated;

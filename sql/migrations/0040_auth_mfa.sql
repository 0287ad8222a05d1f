-- 0040 auth MFA: TOTP factors, their challenges and each session's assurance level, in the
-- shape Supabase's auth server keeps them (auth.mfa_factors, auth.mfa_challenges,
-- auth.mfa_amr_claims, sessions.aal and sessions.factor_id).
--
-- A user enrolls a factor (unverified, holding its TOTP secret), asks for a challenge, and
-- verifies a code against it: the factor turns verified and the session is raised to aal2,
-- with a `totp` entry among its amr claims, so the access tokens it is issued say so.
--
-- Columns GoTrue does not have, kept because a code must work once and guesses are limited:
-- mfa_factors.last_verified_step (the last RFC 6238 time step accepted) and
-- mfa_challenges.failed_attempts. The secret is stored as GoTrue stores it unencrypted;
-- like every auth table these belong to supabase_auth_admin, with RLS on and no policy,
-- so API roles read none of it.

ALTER TABLE auth.sessions
    ADD COLUMN aal       text NOT NULL DEFAULT 'aal1' CHECK (aal IN ('aal1', 'aal2', 'aal3')),
    ADD COLUMN factor_id uuid;

CREATE TABLE auth.mfa_factors (
    id                 uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id            uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    friendly_name      text,
    factor_type        text        NOT NULL CHECK (factor_type IN ('totp', 'webauthn', 'phone')),
    status             text        NOT NULL DEFAULT 'unverified' CHECK (status IN ('unverified', 'verified')),
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    -- base32 TOTP secret
    secret             text,
    phone              text,
    last_challenged_at timestamptz,
    last_verified_step bigint
);
CREATE UNIQUE INDEX mfa_factors_user_friendly_name_unique
    ON auth.mfa_factors (friendly_name, user_id) WHERE trim(friendly_name) <> '';
CREATE INDEX factor_id_created_at_idx ON auth.mfa_factors (user_id, created_at);

CREATE TABLE auth.mfa_challenges (
    id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    factor_id       uuid        NOT NULL REFERENCES auth.mfa_factors (id) ON DELETE CASCADE,
    created_at      timestamptz NOT NULL DEFAULT now(),
    verified_at     timestamptz,
    ip_address      text        NOT NULL,
    otp_code        text,
    failed_attempts integer     NOT NULL DEFAULT 0
);
CREATE INDEX mfa_challenge_created_at_idx ON auth.mfa_challenges (created_at DESC);
CREATE INDEX mfa_challenges_factor_id_idx ON auth.mfa_challenges (factor_id, created_at);

CREATE TABLE auth.mfa_amr_claims (
    session_id            uuid        NOT NULL REFERENCES auth.sessions (id) ON DELETE CASCADE,
    created_at            timestamptz NOT NULL,
    updated_at            timestamptz NOT NULL,
    authentication_method text        NOT NULL,
    id                    uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    CONSTRAINT mfa_amr_claims_session_id_authentication_method_pkey UNIQUE (session_id, authentication_method)
);

ALTER TABLE auth.mfa_factors ENABLE ROW LEVEL SECURITY;
ALTER TABLE auth.mfa_challenges ENABLE ROW LEVEL SECURITY;
ALTER TABLE auth.mfa_amr_claims ENABLE ROW LEVEL SECURITY;
ALTER TABLE auth.mfa_factors OWNER TO supabase_auth_admin;
ALTER TABLE auth.mfa_challenges OWNER TO supabase_auth_admin;
ALTER TABLE auth.mfa_amr_claims OWNER TO supabase_auth_admin;
REVOKE ALL ON auth.mfa_factors, auth.mfa_challenges, auth.mfa_amr_claims FROM PUBLIC, anon, authenticated;

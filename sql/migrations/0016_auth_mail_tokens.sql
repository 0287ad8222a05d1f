-- 0016 auth mail tokens: the one-time tokens that mailed links and codes carry.
--
-- Sign-up confirmation, password recovery, magic links and email OTPs each mail a
-- 6-digit code and a link holding a token derived from it. As in GoTrue's
-- auth.one_time_tokens, a user has at most one live token of each type (a new mail
-- replaces the previous token); `relates_to` is the address it was mailed to. Only
-- a SHA-256 hash of the link token is stored, so the table cannot be used to sign in.
--
-- auth.users gains the times GoTrue reports (`confirmation_sent_at`,
-- `recovery_sent_at`, `invited_at`) and auth.sessions how the session was started
-- (the `amr` claim's method: password, otp, …).

CREATE TABLE auth.one_time_tokens (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    token_type text        NOT NULL CHECK (token_type IN (
                               'confirmation_token', 'reauthentication_token', 'recovery_token',
                               'email_change_token_new', 'email_change_token_current', 'phone_change_token')),
    -- hex SHA-256 of the link token; never the token or the code
    token_hash text        NOT NULL CHECK (char_length(token_hash) = 64),
    relates_to text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT one_time_tokens_user_id_token_type_key UNIQUE (user_id, token_type)
);
CREATE INDEX one_time_tokens_token_hash_idx ON auth.one_time_tokens USING hash (token_hash);

ALTER TABLE auth.one_time_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE auth.one_time_tokens OWNER TO supabase_auth_admin;
REVOKE ALL ON auth.one_time_tokens FROM PUBLIC, anon, authenticated;

ALTER TABLE auth.users
    ADD COLUMN confirmation_sent_at timestamptz,
    ADD COLUMN recovery_sent_at     timestamptz,
    ADD COLUMN invited_at           timestamptz;

ALTER TABLE auth.sessions
    ADD COLUMN authentication_method text NOT NULL DEFAULT 'password';

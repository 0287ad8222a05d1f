-- 0015 auth identities: how each account signs in, as Supabase's auth server records it.
--
-- GoTrue keeps one row per sign-in method of a user in auth.identities and returns
-- them as `user.identities`; clients read them (`getUserIdentities()`, and sign-up
-- with confirmation on answers a taken address with an empty list). The table has
-- GoTrue's shape: `provider_id` is the provider's id for the user (for "email", the
-- user's own id), `identity_data` the provider's claims (`sub`, `email`,
-- `email_verified`, `phone_verified`, plus the sign-up metadata), `email` generated
-- from it.
--
-- Only the email provider exists here, so a trigger keeps its identity in step with
-- auth.users: made with the account (every path that creates one: sign-up, admin,
-- `compass users create`, fixtures) and updated when the address changes or is
-- confirmed. An account without an email (anonymous) has none until it gets one.

CREATE TABLE auth.identities (
    provider_id     text        NOT NULL,
    user_id         uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    identity_data   jsonb       NOT NULL,
    provider        text        NOT NULL,
    last_sign_in_at timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    email           text        GENERATED ALWAYS AS (lower(identity_data ->> 'email')) STORED,
    id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    CONSTRAINT identities_provider_id_provider_unique UNIQUE (provider_id, provider)
);
CREATE INDEX identities_user_id_idx ON auth.identities (user_id);
CREATE INDEX identities_email_idx ON auth.identities (email text_pattern_ops);

ALTER TABLE auth.identities ENABLE ROW LEVEL SECURITY;
ALTER TABLE auth.identities OWNER TO supabase_auth_admin;
REVOKE ALL ON auth.identities FROM PUBLIC, anon, authenticated;

-- The new or changed account's email identity, created or brought up to date.
CREATE FUNCTION auth.sync_email_identity() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
    claims jsonb;
BEGIN
    IF NEW.email IS NULL THEN
        RETURN NEW;
    END IF;
    claims := pg_catalog.jsonb_build_object(
        'sub', NEW.id::text, 'email', NEW.email,
        'email_verified', NEW.email_confirmed_at IS NOT NULL, 'phone_verified', false);
    INSERT INTO auth.identities AS i (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
    VALUES (NEW.id::text, NEW.id, coalesce(NEW.raw_user_meta_data, '{}'::jsonb) || claims, 'email',
            NEW.last_sign_in_at, NEW.created_at, NEW.updated_at)
    ON CONFLICT (provider_id, provider) DO UPDATE
        SET identity_data = i.identity_data || claims, updated_at = pg_catalog.now();
    RETURN NEW;
END
$$;

REVOKE ALL ON FUNCTION auth.sync_email_identity() FROM PUBLIC;

CREATE TRIGGER on_auth_user_created_identity
    AFTER INSERT ON auth.users
    FOR EACH ROW EXECUTE FUNCTION auth.sync_email_identity();

CREATE TRIGGER on_auth_user_email_changed_identity
    AFTER UPDATE OF email, email_confirmed_at ON auth.users
    FOR EACH ROW
    WHEN (OLD.email IS DISTINCT FROM NEW.email OR (OLD.email_confirmed_at IS NULL) <> (NEW.email_confirmed_at IS NULL))
    EXECUTE FUNCTION auth.sync_email_identity();

-- A sign-in through the email provider is that identity's sign-in.
CREATE FUNCTION auth.touch_email_identity() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
    UPDATE auth.identities SET last_sign_in_at = NEW.last_sign_in_at, updated_at = pg_catalog.now()
     WHERE provider = 'email' AND provider_id = NEW.id::text;
    RETURN NEW;
END
$$;

REVOKE ALL ON FUNCTION auth.touch_email_identity() FROM PUBLIC;

CREATE TRIGGER on_auth_user_signed_in_identity
    AFTER UPDATE OF last_sign_in_at ON auth.users
    FOR EACH ROW
    WHEN (OLD.last_sign_in_at IS DISTINCT FROM NEW.last_sign_in_at)
    EXECUTE FUNCTION auth.touch_email_identity();

-- Accounts made before this migration.
INSERT INTO auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
SELECT u.id::text, u.id,
       u.raw_user_meta_data || jsonb_build_object('sub', u.id::text, 'email', u.email,
                                                  'email_verified', u.email_confirmed_at IS NOT NULL, 'phone_verified', false),
       'email', u.last_sign_in_at, u.created_at, u.updated_at
  FROM auth.users AS u
 WHERE u.email IS NOT NULL;

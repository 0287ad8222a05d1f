-- 0043 auth OAuth clients: the apps registered with the auth server's OAuth 2.1 server, in the
-- shape Supabase's auth server keeps them (auth.oauth_clients).
--
-- The client's id is its `client_id`. A confidential client's secret is stored only as a
-- SHA-256 hash (base64url, as GoTrue stores it); a public client has none. A deleted client
-- keeps its row with `deleted_at` set, as GoTrue soft-deletes it. Redirect URIs and grant
-- types are arrays here (GoTrue keeps comma-joined text). Like every auth table it belongs to
-- supabase_auth_admin, with RLS on and no policy, so API roles read none of it.

CREATE TABLE auth.oauth_clients (
    id                         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    client_secret_hash         text,
    registration_type          text        NOT NULL CHECK (registration_type IN ('dynamic', 'manual')),
    client_type                text        NOT NULL DEFAULT 'confidential' CHECK (client_type IN ('public', 'confidential')),
    token_endpoint_auth_method text        NOT NULL
        CHECK (token_endpoint_auth_method IN ('none', 'client_secret_basic', 'client_secret_post')),
    redirect_uris              text[]      NOT NULL CHECK (cardinality(redirect_uris) BETWEEN 1 AND 10),
    grant_types                text[]      NOT NULL
        CHECK (cardinality(grant_types) >= 1 AND grant_types <@ ARRAY['authorization_code', 'refresh_token']),
    client_name                text        CHECK (char_length(client_name) <= 1024),
    client_uri                 text        CHECK (char_length(client_uri) <= 2048),
    logo_uri                   text        CHECK (char_length(logo_uri) <= 2048),
    created_at                 timestamptz NOT NULL DEFAULT now(),
    updated_at                 timestamptz NOT NULL DEFAULT now(),
    deleted_at                 timestamptz,
    -- A public client has no secret; a confidential one always has one.
    CONSTRAINT oauth_clients_secret_matches_type
        CHECK ((client_type = 'public') = (client_secret_hash IS NULL)),
    CONSTRAINT oauth_clients_auth_method_matches_type
        CHECK ((client_type = 'public') = (token_endpoint_auth_method = 'none'))
);
CREATE INDEX oauth_clients_created_at_idx ON auth.oauth_clients (created_at DESC, id) WHERE deleted_at IS NULL;

ALTER TABLE auth.oauth_clients ENABLE ROW LEVEL SECURITY;
ALTER TABLE auth.oauth_clients OWNER TO supabase_auth_admin;
REVOKE ALL ON auth.oauth_clients FROM PUBLIC, anon, authenticated;

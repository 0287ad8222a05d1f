-- 0047 Supabase's extensions where Supabase projects find them
--
-- A Supabase project has `uuid-ossp` (and `pgcrypto`, here since 0011) in schema
-- `extensions`, and `extensions` on the database's search path, so its migrations call
-- `uuid_generate_v4()`, `gen_salt()` or `crypt()` without a schema. Here those migrations
-- stopped at "function uuid_generate_v4() does not exist".
--
-- uuid-ossp is installed when the server has it (Postgres's contrib; the official images
-- and Debian's packages do). The search path becomes `public, extensions` for new sessions
-- of this database, unless an operator chose one (for the database, the server, or the role
-- migrating): then theirs stays. Not Postgres's `"$user"` first, which Supabase keeps for its
-- admin roles only: sessions that switch to an API role (the data layer, the CLI, realtime's
-- checks, auth) would otherwise search a schema named after that role, which anyone with
-- CREATE on the database could make. Compass's own SQL does not depend on the path: its
-- functions fix theirs, REST sets one per request, and `public` still comes before
-- `extensions`.

DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_catalog.pg_available_extensions WHERE name = 'uuid-ossp') THEN
        CREATE EXTENSION IF NOT EXISTS "uuid-ossp" WITH SCHEMA extensions;
    END IF;
END
$$;

GRANT USAGE ON SCHEMA extensions TO anon, authenticated, service_role;

DO $$
BEGIN
    IF NOT EXISTS (
        SELECT FROM pg_catalog.pg_db_role_setting AS s
          JOIN pg_catalog.pg_database AS d ON d.oid = s.setdatabase
         WHERE d.datname = pg_catalog.current_database() AND s.setrole = 0
           AND EXISTS (SELECT FROM pg_catalog.unnest(s.setconfig) AS c(setting) WHERE c.setting LIKE 'search_path=%'))
       -- Set for the server or the migrating role (what this session started with differs from Postgres's own).
       AND (SELECT p.reset_val = p.boot_val FROM pg_catalog.pg_settings AS p WHERE p.name = 'search_path')
    THEN
        EXECUTE pg_catalog.format(
            'ALTER DATABASE %I SET search_path = public, extensions', pg_catalog.current_database());
    END IF;
EXCEPTION WHEN insufficient_privilege THEN
    NULL;  -- not the database's owner: the path stays as it is
END
$$;

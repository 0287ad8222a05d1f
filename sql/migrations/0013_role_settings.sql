-- 0013 role settings: per-role statement timeouts, applied inside every request
--
-- As on Supabase, a request as anon may run for 3 s and one as authenticated for
-- 8 s; service_role has no limit. The limits are settings of the roles themselves
-- (ALTER ROLE … SET), so operators change them the way they would on Supabase:
--
--     ALTER ROLE authenticated SET statement_timeout = '15s';
--
-- Role settings only take effect at login, and the worker logs in once as
-- authenticator and switches role per request with set_config('role', …, true).
-- So, as PostgREST applies role settings, each request's scope statement calls
-- auth.apply_role_settings(role): it copies the role's timeouts (a database's
-- own ALTER ROLE … IN DATABASE settings over the cluster-wide ones) into
-- transaction-local settings, read fresh from the catalog each time, so a
-- change applies to the next request with no reload.

-- Roles are cluster-wide: set the defaults only where an operator has not set their own.
DO $$
DECLARE
    target text;
    timeout text;
BEGIN
    FOR target, timeout IN VALUES ('anon', '3s'), ('authenticated', '8s')
    LOOP
        IF NOT EXISTS (
            SELECT FROM pg_catalog.pg_db_role_setting s
            JOIN pg_catalog.pg_roles r ON r.oid = s.setrole
            CROSS JOIN LATERAL pg_catalog.unnest(s.setconfig) AS entry
            WHERE r.rolname = target AND s.setdatabase = 0 AND entry LIKE 'statement\_timeout=%'
        ) THEN
            EXECUTE pg_catalog.format('ALTER ROLE %I SET statement_timeout = %L', target, timeout);
        END IF;
    END LOOP;
END
$$;

-- The timeouts a request takes over from its role; nothing else a role may carry
-- (search_path, say) is copied, so a role setting cannot change what the API's SQL means.
CREATE FUNCTION auth.apply_role_settings(role_name text) RETURNS void
LANGUAGE plpgsql
VOLATILE
SET search_path = ''
AS $$
DECLARE
    entry text;
    name text;
BEGIN
    FOR entry IN
        SELECT setting
        FROM pg_catalog.pg_db_role_setting s
        JOIN pg_catalog.pg_roles r ON r.oid = s.setrole
        CROSS JOIN LATERAL pg_catalog.unnest(s.setconfig) AS setting
        WHERE r.rolname = role_name
          AND s.setdatabase IN (0, (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname = pg_catalog.current_database()))
        ORDER BY s.setdatabase  -- 0 (every database) first, so the database's own wins
    LOOP
        name := pg_catalog.split_part(entry, '=', 1);
        IF name IN ('statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout') THEN
            PERFORM pg_catalog.set_config(name, pg_catalog.substr(entry, pg_catalog.strpos(entry, '=') + 1), true);
        END IF;
    END LOOP;
END
$$;

REVOKE EXECUTE ON FUNCTION auth.apply_role_settings(text) FROM PUBLIC;
GRANT USAGE ON SCHEMA auth TO anon, authenticated, service_role, supabase_auth_admin;
GRANT EXECUTE ON FUNCTION auth.apply_role_settings(text) TO anon, authenticated, service_role, supabase_auth_admin;

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
-- So, as PostgREST applies role settings, each request's scope statement copies
-- the role's statement_timeout (a database's own ALTER ROLE … IN DATABASE
-- setting over the cluster-wide one) into a transaction-local setting, read from
-- the catalog each time, so a change applies to the next request with no reload
-- (PostgresQuery.requestScope in Sources/Postgres writes that statement).

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

-- 0025 schema version: what compass-worker's /ready compares with the latest
-- migration it ships.
--
-- compass.schema_migrations has RLS on and no policies, and the worker may
-- connect as authenticator, which holds no privileges of its own; this one
-- SECURITY DEFINER function answers the highest applied version to
-- authenticator (and superusers) only, so the API roles learn nothing new.

CREATE FUNCTION compass.schema_version() RETURNS integer
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
AS $$
    SELECT max(version) FROM compass.schema_migrations
$$;

REVOKE ALL ON FUNCTION compass.schema_version() FROM PUBLIC;
GRANT USAGE ON SCHEMA compass TO authenticator;
GRANT EXECUTE ON FUNCTION compass.schema_version() TO authenticator;

-- 0010 The claim accessors become inlinable
--
-- auth.uid() and its siblings sit in nearly every RLS policy. A function with
-- `SET search_path` is never inlined: each call saves, sets and restores the
-- setting, which cost about 30 µs per statement in the realtime worker's
-- per-subscriber checks (measured with realtime.visible_rows over 2,000
-- subscribers). Without the SET clause, PostgreSQL folds the body into the
-- policy expression, as Supabase's own definitions allow.
--
-- What the SET clause protected against, a caller's search_path changing what
-- a name means, is handled by naming nothing unqualified: every function,
-- operator and type below is spelled with pg_catalog, and NULLIF (which looks
-- its `=` up by name) is written as CASE with a qualified operator. These four
-- functions are not SECURITY DEFINER; sql/tests/schema_conventions.sql lists
-- them as the only functions without a fixed search_path and checks that the
-- planner inlines them.

CREATE OR REPLACE FUNCTION auth.jwt() RETURNS jsonb
LANGUAGE sql STABLE
AS $$
    SELECT CASE
        WHEN pg_catalog.current_setting('request.jwt.claims', true) OPERATOR(pg_catalog.<>) ''
            THEN pg_catalog.current_setting('request.jwt.claims', true)::pg_catalog.jsonb
        WHEN pg_catalog.current_setting('request.jwt.claim', true) OPERATOR(pg_catalog.<>) ''
            THEN pg_catalog.current_setting('request.jwt.claim', true)::pg_catalog.jsonb
    END
$$;

CREATE OR REPLACE FUNCTION auth.uid() RETURNS uuid
LANGUAGE sql STABLE
AS $$
    SELECT CASE
        WHEN pg_catalog.current_setting('request.jwt.claims', true) OPERATOR(pg_catalog.<>) ''
         AND (pg_catalog.current_setting('request.jwt.claims', true)::pg_catalog.jsonb
                  OPERATOR(pg_catalog.->>) 'sub') OPERATOR(pg_catalog.<>) ''
            THEN (pg_catalog.current_setting('request.jwt.claims', true)::pg_catalog.jsonb
                      OPERATOR(pg_catalog.->>) 'sub')::pg_catalog.uuid
        WHEN pg_catalog.current_setting('request.jwt.claim.sub', true) OPERATOR(pg_catalog.<>) ''
            THEN pg_catalog.current_setting('request.jwt.claim.sub', true)::pg_catalog.uuid
    END
$$;

CREATE OR REPLACE FUNCTION auth.role() RETURNS text
LANGUAGE sql STABLE
AS $$
    SELECT CASE
        WHEN pg_catalog.current_setting('request.jwt.claims', true) OPERATOR(pg_catalog.<>) ''
         AND (pg_catalog.current_setting('request.jwt.claims', true)::pg_catalog.jsonb
                  OPERATOR(pg_catalog.->>) 'role') OPERATOR(pg_catalog.<>) ''
            THEN pg_catalog.current_setting('request.jwt.claims', true)::pg_catalog.jsonb
                     OPERATOR(pg_catalog.->>) 'role'
        WHEN pg_catalog.current_setting('request.jwt.claim.role', true) OPERATOR(pg_catalog.<>) ''
            THEN pg_catalog.current_setting('request.jwt.claim.role', true)
    END
$$;

CREATE OR REPLACE FUNCTION auth.email() RETURNS text
LANGUAGE sql STABLE
AS $$
    SELECT CASE
        WHEN pg_catalog.current_setting('request.jwt.claims', true) OPERATOR(pg_catalog.<>) ''
         AND (pg_catalog.current_setting('request.jwt.claims', true)::pg_catalog.jsonb
                  OPERATOR(pg_catalog.->>) 'email') OPERATOR(pg_catalog.<>) ''
            THEN pg_catalog.current_setting('request.jwt.claims', true)::pg_catalog.jsonb
                     OPERATOR(pg_catalog.->>) 'email'
        WHEN pg_catalog.current_setting('request.jwt.claim.email', true) OPERATOR(pg_catalog.<>) ''
            THEN pg_catalog.current_setting('request.jwt.claim.email', true)
    END
$$;

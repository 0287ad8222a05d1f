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
-- them (with auth.claim, which they share) as the only functions without a
-- fixed search_path and checks that the planner inlines them.

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

-- One claim as text: `request.jwt.claims` ->> name, else the older per-claim
-- setting `request.jwt.claim.<name>`; NULL when neither is set or both are empty.
-- The three accessors below are this with a name, and inline through it.
CREATE FUNCTION auth.claim(name text) RETURNS text
LANGUAGE sql STABLE
AS $$
    SELECT CASE
        WHEN pg_catalog.current_setting('request.jwt.claims', true) OPERATOR(pg_catalog.<>) ''
         AND (pg_catalog.current_setting('request.jwt.claims', true)::pg_catalog.jsonb
                  OPERATOR(pg_catalog.->>) name) OPERATOR(pg_catalog.<>) ''
            THEN pg_catalog.current_setting('request.jwt.claims', true)::pg_catalog.jsonb OPERATOR(pg_catalog.->>) name
        WHEN pg_catalog.current_setting('request.jwt.claim.' OPERATOR(pg_catalog.||) name, true) OPERATOR(pg_catalog.<>) ''
            THEN pg_catalog.current_setting('request.jwt.claim.' OPERATOR(pg_catalog.||) name, true)
    END
$$;

CREATE OR REPLACE FUNCTION auth.uid() RETURNS uuid
LANGUAGE sql STABLE
AS $$ SELECT auth.claim('sub')::pg_catalog.uuid $$;

CREATE OR REPLACE FUNCTION auth.role() RETURNS text
LANGUAGE sql STABLE
AS $$ SELECT auth.claim('role') $$;

CREATE OR REPLACE FUNCTION auth.email() RETURNS text
LANGUAGE sql STABLE
AS $$ SELECT auth.claim('email') $$;

-- Inlining needs EXECUTE on every function it folds in, for whoever plans the query.
GRANT EXECUTE ON FUNCTION auth.claim(text) TO anon, authenticated, service_role;

-- 0041 role settings: no JIT compilation for requests as anon or authenticated
--
-- LLVM compiles a query whose estimated cost passes jit_above_cost, and it does
-- not stop for a cancel or a statement timeout while it compiles. A REST select
-- with a hundred sibling embeds (a 1.7 KB URL, any signed-in user) compiled for
-- minutes, past the 8 s timeout, in gigabytes, until its backend was killed;
-- without JIT the same request plans and runs in a second. The API's queries
-- are short and many, which is where JIT does not pay.
--
-- Like the timeouts of 0013 these are settings of the roles, which every REST
-- request applies (as PostgREST applies role settings); an operator who wants JIT
-- back runs ALTER ROLE authenticated RESET jit.

DO $$
DECLARE
    target text;
BEGIN
    FOREACH target IN ARRAY ARRAY['anon', 'authenticated']
    LOOP
        IF NOT EXISTS (
            SELECT FROM pg_catalog.pg_db_role_setting s
            JOIN pg_catalog.pg_roles r ON r.oid = s.setrole
            CROSS JOIN LATERAL pg_catalog.unnest(s.setconfig) AS entry
            WHERE r.rolname = target AND s.setdatabase = 0 AND entry LIKE 'jit=%'
        ) THEN
            EXECUTE pg_catalog.format('ALTER ROLE %I SET jit = off', target);
        END IF;
    END LOOP;
END
$$;

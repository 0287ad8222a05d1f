-- 0007 realtime visibility checks in one statement
--
-- The worker must ask Postgres, for a batch of changes, which rows each group of
-- subscribers (one role + claims set) may read under RLS. One pipeline segment
-- per group works but costs two statements, a transaction and a fresh plan of
-- the RLS-expanded query per group. realtime.visible_rows(checks) does all
-- groups in one call: for each group it switches role and claims exactly as
-- PostgREST does (set_config(..., true)), then runs a per-table check that is
-- PREPAREd once per session, so its plan (policies included) is reused across
-- groups; auth.uid() is read at execution time, so a cached plan is still
-- evaluated with each group's claims.
--
--   checks: [{"role": "authenticated", "claims": "{\"sub\": …}",
--             "relation": "public.interactions", "keys": [["<pk>", …], …]}, …]
--   returns (check_index, row_index) for every visible row, both 0-based.
--
-- SECURITY INVOKER on purpose: the caller (the worker as service_role, logged
-- in as authenticator or a superuser) must be allowed to become each role. The
-- settings are transaction-local: call it alone in its own transaction.
-- Keys reach the prepared statement as a quoted literal (format %L), never as
-- SQL text; identifiers come from the catalog (regclass, format %I).

CREATE FUNCTION realtime.visible_rows(checks jsonb)
RETURNS TABLE (check_index int, row_index int)
LANGUAGE plpgsql
SET search_path = ''
AS $$
DECLARE
    item          jsonb;
    position      int := 0;
    relation      regclass;
    last_relation regclass;
    prepared_name     text;
    conditions    text;
BEGIN
    FOR item IN SELECT value FROM pg_catalog.jsonb_array_elements(checks) LOOP
        IF item->>'role' IS NULL OR item->>'role' NOT IN ('anon', 'authenticated', 'service_role') THEN
            RAISE EXCEPTION 'realtime.visible_rows: % is not a client role', item->>'role'
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
        relation := (item->>'relation')::regclass;
        IF last_relation IS DISTINCT FROM relation THEN
            prepared_name := 'realtime_visible_' || relation::oid;
            IF NOT EXISTS (SELECT FROM pg_catalog.pg_prepared_statements AS p WHERE p.name = prepared_name) THEN
                SELECT pg_catalog.string_agg(
                           pg_catalog.format('t.%I = (k.v->>%s)::%s', a.attname, n.i - 1,
                                             pg_catalog.format_type(a.atttypid, a.atttypmod)),
                           ' AND ' ORDER BY n.i)
                  INTO conditions
                  FROM pg_catalog.pg_index AS x
                 CROSS JOIN LATERAL pg_catalog.unnest(x.indkey::int2[]) WITH ORDINALITY AS n(attnum, i)
                  JOIN pg_catalog.pg_attribute AS a ON a.attrelid = x.indrelid AND a.attnum = n.attnum
                 WHERE x.indrelid = relation AND x.indisprimary;
                IF conditions IS NULL THEN
                    RAISE EXCEPTION 'realtime.visible_rows: % has no primary key', relation
                        USING ERRCODE = 'invalid_parameter_value';
                END IF;
                EXECUTE pg_catalog.format(
                    'PREPARE %I (jsonb, int) AS '
                    'SELECT $2, (k.i - 1)::int FROM pg_catalog.jsonb_array_elements($1) WITH ORDINALITY AS k(v, i) '
                    'WHERE EXISTS (SELECT FROM %s AS t WHERE %s)',
                    prepared_name, relation, conditions);
            END IF;
            last_relation := relation;
        END IF;
        PERFORM pg_catalog.set_config('role', item->>'role', true),
                pg_catalog.set_config('request.jwt.claims', item->>'claims', true);
        -- A role without SELECT on the table sees nothing (checked here, so one
        -- group cannot fail the whole call).
        IF pg_catalog.has_table_privilege(relation, 'SELECT') THEN
            RETURN QUERY EXECUTE pg_catalog.format('EXECUTE %I(%L, %s)', prepared_name, item->'keys', position);
        END IF;
        position := position + 1;
    END LOOP;
END
$$;

REVOKE EXECUTE ON FUNCTION realtime.visible_rows(jsonb) FROM PUBLIC, anon, authenticated;
GRANT EXECUTE ON FUNCTION realtime.visible_rows(jsonb) TO service_role;

-- 0009 realtime.visible_rows looks rows up by primary key
--
-- 0007 tested keys with WHERE EXISTS (...). For a table whose policy is
-- "user_id = auth.uid()" the planner may answer that with a hash join over all
-- of the subscriber's rows (found through the user_id index), so each check
-- cost grew with how many rows the subscriber owns. A LATERAL lookup with
-- LIMIT 1 is always a primary-key probe per key, with the policy as a filter.
-- Prepared statements get a new name, so sessions that prepared the old text
-- never run it again.

CREATE OR REPLACE FUNCTION realtime.visible_rows(checks jsonb)
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
            prepared_name := 'realtime_visible_by_key_' || relation::oid;
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
                    'CROSS JOIN LATERAL (SELECT FROM %s AS t WHERE %s LIMIT 1) AS found',
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


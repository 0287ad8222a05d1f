-- 0042 realtime: a role with SELECT on some columns (column-level security) gets its events
--
-- Supabase's column-level security revokes a table's SELECT and grants it back on
-- some columns (REVOKE SELECT ON t FROM anon; GRANT SELECT (id, name) ON t TO anon).
-- The role may still read those columns, and Supabase Realtime delivers its changes
-- with them only. The visibility functions of 0030 and 0031 asked for SELECT on the
-- whole table, so such a role silently received nothing.
--
-- What a visibility check reads is the row's primary key (`SELECT FROM t WHERE
-- pk = …`, under the subscriber's role and RLS), so that is what the role must be
-- allowed to SELECT; the worker sends each role only the columns it may read.
--
-- The two functions differ from their 0030/0031 text only in that test, so their
-- current definitions are rewritten in place rather than copied here whole, and the
-- migration fails if a definition no longer holds the test it replaces. The test is
-- written inline over pg_catalog: the per-group check runs as the subscriber's role,
-- which has no USAGE on schema realtime.

DO $$
DECLARE
    rewrite record;
    definition text;
    key_test constant text := 'NOT EXISTS (SELECT FROM pg_catalog.pg_index AS i '
        || 'CROSS JOIN LATERAL pg_catalog.unnest(i.indkey::int2[]) AS k(attnum) '
        || 'WHERE i.indrelid = relation AND i.indisprimary AND NOT pg_catalog.has_column_privilege(%s))';
BEGIN
    FOR rewrite IN
        SELECT * FROM (VALUES
            ('realtime.visible_rows_one_by_one(jsonb, integer[])'::regprocedure,
             'pg_catalog.has_table_privilege(relation, ''SELECT'')',
             pg_catalog.format(key_test, 'relation, k.attnum, ''SELECT''')),
            ('realtime.batch_query(regclass, text)'::regprocedure,
             'pg_catalog.has_table_privilege(role_oid, relation, ''SELECT'')',
             pg_catalog.format(key_test, 'role_oid, relation, k.attnum, ''SELECT'''))
        ) AS r(function, test, replacement)
    LOOP
        definition := pg_catalog.pg_get_functiondef(rewrite.function);
        IF pg_catalog.strpos(definition, rewrite.test) = 0 THEN
            RAISE EXCEPTION '% does not test %', rewrite.function, rewrite.test;
        END IF;
        EXECUTE pg_catalog.replace(definition, rewrite.test, rewrite.replacement);
    END LOOP;
END
$$;

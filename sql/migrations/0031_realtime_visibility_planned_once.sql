-- 0031 The batched visibility query, planned once per session and fetching each row once
--
-- 0030 decides one (table, role) group of checks in one query, but
--   * it planned that query on every call (EXECUTE ... USING): 100-250 µs a call;
--   * it walked the checks with one jsonb lookup and one set-returning call per
--     check, parsed each subscriber's claims from a string, and probed the
--     table's primary key once per (check, row): 10 µs per check.
-- Here:
--   * the query for a (table, role, policy version) becomes a temporary plpgsql
--     function (pg_temp, this session's only), whose plan Postgres caches like
--     any static statement in a function; the function is named after the
--     query's text (md5), so a changed policy makes a new one and the old one is
--     never called again. Where temporary functions cannot be created (TEMP
--     revoked), the query is run with EXECUTE as before.
--   * the checks are read in one pass (jsonb_to_recordset), claims may be sent
--     as JSON objects (read as they are) or as strings (parsed, as before), and
--     each distinct row is fetched once by its key; the policy is then evaluated
--     for every (check, row) pair against that fetched row.
-- The policy's expression is the one 0030 derives (realtime.subscriber_policy),
-- now also refused when it reads the whole row or a system column: the row here
-- is a subquery over the table, not the table itself.
--
-- realtime.visible_rows keeps its contract; a check's "claims" may now be a JSON
-- object as well as a string. The per-group path (realtime.visible_rows_one_by_one)
-- is unchanged and still the reference.

-- 0030's rules, plus: no whole-row or system-column reference.
CREATE OR REPLACE FUNCTION realtime.subscriber_policy_over_row(policy oid)
RETURNS text
LANGUAGE sql STABLE
SET search_path = ''
AS $$
    SELECT CASE WHEN p.polqual::text !~ ' :varattno (0|-[0-9]+) ' THEN realtime.subscriber_policy(p.oid) END
      FROM pg_catalog.pg_policy AS p
     WHERE p.oid = policy
$$;

-- The query that decides, for every check of one (table, role) group, which of
-- its rows are visible: 'none' when the role sees nothing, NULL when the group
-- must take the per-group path. Parameters: $1 the checks, $2 the role, $3 the
-- relation exactly as the checks spell it. Once built it is cached for the
-- session as the name of a temporary function running it (see the top).
CREATE OR REPLACE FUNCTION realtime.batch_query(relation regclass, role text)
RETURNS text
LANGUAGE plpgsql
SET search_path = ''
AS $$
DECLARE
    role_oid  CONSTANT oid := pg_catalog.to_regrole(role);
    setting   text;
    cached    text;
    permissive  text[] := '{}';
    restrictive text[] := '{}';
    policy    record;
    expression text;
    bypasses  boolean;
    alias     text;
    predicate text;
    statement text;
    runner    text;
BEGIN
    -- The batch reads the table as the caller: only a caller RLS does not filter sees what the
    -- policy decides (0030 read pg_roles here, a view joined with role settings: ~10 µs a call).
    IF pg_catalog.row_security_active(relation) THEN
        RETURN NULL;
    END IF;
    IF role_oid IS NULL OR NOT pg_catalog.has_table_privilege(role_oid, relation, 'SELECT') THEN
        RETURN 'none';
    END IF;
    -- Named after the versions of the rows it was built from.
    SELECT 'realtime.batch2_' || relation::oid || '_' || role || '_'
           || pg_catalog.left(pg_catalog.md5(c.xmin::text || c.cmin::text || c.ctid::text || coalesce((
                  SELECT pg_catalog.string_agg(p.oid::text || ':' || p.xmin::text || ':' || p.cmin::text || p.ctid::text, ',' ORDER BY p.oid)
                    FROM pg_catalog.pg_policy AS p WHERE p.polrelid = relation), '')), 16)
      INTO setting
      FROM pg_catalog.pg_class AS c WHERE c.oid = relation;
    cached := pg_catalog.current_setting(setting, true);
    IF cached IS NOT NULL AND cached <> '' THEN
        IF cached = 'per-group' THEN
            RETURN NULL;
        END IF;
        -- A temporary function outlives nothing: DISCARD TEMP drops it behind the setting's back.
        IF cached NOT LIKE 'pg\_temp.%'
           OR EXISTS (SELECT FROM pg_catalog.pg_proc AS f
                       WHERE f.pronamespace = pg_catalog.pg_my_temp_schema()
                         AND f.proname = pg_catalog.substr(cached, 9)) THEN
            RETURN cached;
        END IF;
    END IF;

    SELECT NOT c.relrowsecurity OR r.rolsuper OR r.rolbypassrls OR (c.relowner = role_oid AND NOT c.relforcerowsecurity)
      INTO bypasses
      FROM pg_catalog.pg_class AS c, pg_catalog.pg_roles AS r
     WHERE c.oid = relation AND r.oid = role_oid;
    IF NOT bypasses THEN
        FOR policy IN
            SELECT p.oid, p.polpermissive
              FROM pg_catalog.pg_policy AS p
             WHERE p.polrelid = relation AND p.polcmd IN ('r', '*') AND p.polqual IS NOT NULL
               AND (0::oid = ANY (p.polroles)
                    OR EXISTS (SELECT FROM pg_catalog.unnest(p.polroles) AS member(oid)
                                WHERE pg_catalog.pg_has_role(role_oid, member.oid, 'MEMBER')))
             ORDER BY p.oid
        LOOP
            expression := realtime.subscriber_policy_over_row(policy.oid);
            IF expression IS NULL THEN
                PERFORM pg_catalog.set_config(setting, 'per-group', false);
                RETURN NULL;
            END IF;
            IF policy.polpermissive THEN
                permissive := permissive || expression;
            ELSE
                restrictive := restrictive || expression;
            END IF;
        END LOOP;
        -- No permissive policy: RLS's default deny.
        IF pg_catalog.cardinality(permissive) = 0 THEN
            PERFORM pg_catalog.set_config(setting, 'none', false);
            RETURN 'none';
        END IF;
        predicate := ' WHERE ((' || pg_catalog.array_to_string(permissive, ') OR (') || '))';
        IF pg_catalog.cardinality(restrictive) > 0 THEN
            predicate := predicate || ' AND (' || pg_catalog.array_to_string(restrictive, ') AND (') || ')';
        END IF;
    END IF;

    -- realtime_subscriber: one row per (check, key) of the group, with the claims as jsonb.
    -- The table's rows are fetched once per distinct key (a primary-key probe each), into a
    -- subquery under the table's own name, so the policy's column references resolve to
    -- them; a name the policy shares with realtime_subscriber's columns is ambiguous, which
    -- fails the plan below and sends the group to the per-group path.
    SELECT c.relname INTO alias FROM pg_catalog.pg_class AS c WHERE c.oid = relation;
    statement := pg_catalog.format(
        'WITH realtime_subscriber AS MATERIALIZED ('
          'SELECT (c.ordinality - 1)::int AS realtime_check_index, c.realtime_key_index, '
                 'c.keys OPERATOR(pg_catalog.->) c.realtime_key_index AS realtime_key, '
                 'CASE WHEN pg_catalog.jsonb_typeof(c.claims) OPERATOR(pg_catalog.=) ''object'' THEN c.claims '
                      'ELSE NULLIF(c.claims OPERATOR(pg_catalog.#>>) ''{}''::text[], '''')::pg_catalog.jsonb END AS claims '
            'FROM (SELECT c.*, pg_catalog.generate_series(0, pg_catalog.jsonb_array_length(c.keys) - 1) AS realtime_key_index '
                    'FROM ROWS FROM (pg_catalog.jsonb_to_recordset($1) AS (role text, relation text, claims jsonb, keys jsonb)) '
                         'WITH ORDINALITY AS c(role, relation, claims, keys, ordinality) '
                   'WHERE c.role OPERATOR(pg_catalog.=) $2 AND c.relation OPERATOR(pg_catalog.=) $3) AS c) '
        'SELECT realtime_subscriber.realtime_check_index, realtime_subscriber.realtime_key_index '
          'FROM realtime_subscriber '
          'JOIN (SELECT realtime_found.*, realtime_keys.realtime_key AS realtime_probe_key '
                  'FROM (SELECT DISTINCT s.realtime_key FROM realtime_subscriber AS s) AS realtime_keys '
                 'CROSS JOIN LATERAL (SELECT t.* FROM %s AS t WHERE %s LIMIT 1) AS realtime_found) AS %I '
            'ON %I.realtime_probe_key OPERATOR(pg_catalog.=) realtime_subscriber.realtime_key%s',
        relation, realtime.key_conditions(relation, 't', 'realtime_keys.realtime_key'), alias, alias,
        coalesce(predicate, ''));
    -- Planned once here, so an expression the batch cannot run takes the per-group path for good.
    BEGIN
        EXECUTE 'EXPLAIN ' || statement USING '[]'::jsonb, role, '';
    EXCEPTION WHEN OTHERS THEN
        PERFORM pg_catalog.set_config(setting, 'per-group', false);
        RETURN NULL;
    END;
    runner := 'realtime_batch_' || pg_catalog.md5(statement);
    BEGIN
        IF NOT EXISTS (SELECT FROM pg_catalog.pg_proc AS f
                        WHERE f.pronamespace = pg_catalog.pg_my_temp_schema() AND f.proname = runner) THEN
            -- use_column: the function's output names never capture one of the table's columns.
            EXECUTE pg_catalog.format(
                'CREATE FUNCTION pg_temp.%I(jsonb, text, text) RETURNS TABLE (check_index int, row_index int) '
                'LANGUAGE plpgsql AS %L',
                runner, E'#variable_conflict use_column\nBEGIN\nRETURN QUERY ' || statement || E';\nEND');
        END IF;
        statement := 'pg_temp.' || runner;
    EXCEPTION WHEN insufficient_privilege OR read_only_sql_transaction THEN
        NULL;  -- no temporary objects here: the statement is planned on every call instead
    END;
    PERFORM pg_catalog.set_config(setting, statement, false);
    RETURN statement;
END
$$;

-- Same contract as before: [{"role", "claims", "relation", "keys"}, ...] in,
-- (check_index, row_index) out, both 0-based; "claims" a JSON object or a string.
-- Groups of 8 checks or more whose policies qualify run in one query per
-- (table, role); the rest one by one.
CREATE OR REPLACE FUNCTION realtime.visible_rows(checks jsonb)
RETURNS TABLE (check_index int, row_index int)
LANGUAGE plpgsql
SET search_path = ''
AS $$
DECLARE
    roles     text[];
    relations text[];
    sizes     bigint[];
    batch     text;
    leftover_roles     text[] := '{}';
    leftover_relations text[] := '{}';
BEGIN
    -- Planning the batch costs about what five checks one by one do: small calls skip it.
    IF pg_catalog.jsonb_array_length(checks) < 8 THEN
        RETURN QUERY SELECT * FROM realtime.visible_rows_one_by_one(checks);
        RETURN;
    END IF;
    -- The (role, relation) groups, in order of first appearance, in one pass over the checks.
    SELECT pg_catalog.array_agg(g.role ORDER BY g.first), pg_catalog.array_agg(g.relation ORDER BY g.first),
           pg_catalog.array_agg(g.size ORDER BY g.first)
      INTO roles, relations, sizes
      FROM (SELECT c.role, c.relation, pg_catalog.count(*) AS size, pg_catalog.min(c.ordinality) AS first
              FROM ROWS FROM (pg_catalog.jsonb_to_recordset(checks) AS (role text, relation text))
                   WITH ORDINALITY AS c(role, relation, ordinality)
             GROUP BY c.role, c.relation) AS g;
    FOR i IN 1 .. pg_catalog.cardinality(roles) LOOP
        IF roles[i] IS NULL OR roles[i] NOT IN ('anon', 'authenticated', 'service_role') THEN
            RAISE EXCEPTION 'realtime.visible_rows: % is not a client role', coalesce(roles[i], 'null')
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
    END LOOP;
    FOR i IN 1 .. pg_catalog.cardinality(roles) LOOP
        batch := CASE WHEN sizes[i] >= 8 THEN realtime.batch_query(relations[i]::regclass, roles[i]) END;
        IF batch IS NULL THEN
            leftover_roles := leftover_roles || roles[i];
            leftover_relations := leftover_relations || relations[i];
        ELSIF batch LIKE 'pg\_temp.%' THEN
            RETURN QUERY EXECUTE 'SELECT * FROM ' || batch || '($1, $2, $3)' USING checks, roles[i], relations[i];
        ELSIF batch <> 'none' THEN
            RETURN QUERY EXECUTE batch USING checks, roles[i], relations[i];
        END IF;
    END LOOP;
    IF pg_catalog.cardinality(leftover_roles) > 0 THEN
        RETURN QUERY SELECT * FROM realtime.visible_rows_one_by_one(checks, (
            SELECT pg_catalog.array_agg(c.ordinality::int)
              FROM ROWS FROM (pg_catalog.jsonb_to_recordset(checks) AS (role text, relation text))
                   WITH ORDINALITY AS c(role, relation, ordinality)
              JOIN ROWS FROM (pg_catalog.unnest(leftover_roles), pg_catalog.unnest(leftover_relations)) AS l(role, relation)
                ON l.role = c.role AND l.relation = c.relation));
    END IF;
END
$$;

REVOKE EXECUTE ON FUNCTION realtime.subscriber_policy_over_row(oid) FROM PUBLIC, anon, authenticated;
GRANT EXECUTE ON FUNCTION realtime.subscriber_policy_over_row(oid) TO service_role;

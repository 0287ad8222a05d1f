-- 0030 One change to many subscribers in one query
--
-- realtime.visible_rows (0007, 0009) switches role and claims for every
-- (role, claims) group and probes the row under RLS: 30-45 µs per subscriber,
-- so one row going to 1,000 subscribers cost tens of milliseconds of database
-- time. Most SELECT policies read the caller only through auth.uid(),
-- auth.jwt() or auth.role(). For those, the policy can be evaluated once over
-- the list of subscribers: the same expression, with each call to one of the
-- three accessors replaced by the same value computed from that subscriber's
-- claims, in one query per (table, role). Every other policy keeps the
-- per-group path, which is the reference: a randomized differential test
-- (sql/tests/realtime_visibility_batch.sql) holds the batch equal to it.
--
-- A policy is evaluated in the batch only when nothing in it depends on who
-- runs the query except those three accessors:
--   * it references no relation but its own table (a subquery over another
--     table, or a view like private.my_family_units, runs under that table's
--     own RLS for the subscriber: only the per-group path does that);
--   * every function it calls, directly or through an operator, is an
--     IMMUTABLE function in pg_catalog, or one of the three accessors; every
--     type it names is in pg_catalog;
--   * it uses no current_user / session_user / current_role (SQL value
--     functions leave no dependency, so the stored expression is read for them);
--   * each accessor call was found exactly once in the deparsed text, outside
--     quoted literals and identifiers.
-- The batch runs as the caller, which must itself bypass RLS (the worker calls
-- it as service_role); otherwise everything takes the per-group path. The
-- legacy per-claim settings (request.jwt.claim.sub, ...) are not read: the
-- worker never sets them.
--
-- The query built for a (table, role) is kept for the session in a setting
-- named after the catalog row versions it was built from (the table's and its
-- policies' xmin, cmin and ctid: a change in the same transaction has the same
-- xmin), so ALTER/CREATE/DROP POLICY or ENABLE/DISABLE ROW LEVEL SECURITY take
-- effect on the next call. It runs
-- through EXECUTE ... USING, so the checks reach it as a value, never as text.

-- The per-group path of 0009, for the checks at `positions` (1-based; NULL: all).
CREATE FUNCTION realtime.visible_rows_one_by_one(checks jsonb, positions int[] DEFAULT NULL)
RETURNS TABLE (check_index int, row_index int)
LANGUAGE plpgsql
SET search_path = ''
AS $$
DECLARE
    item          jsonb;
    position      int;
    relation      regclass;
    last_relation regclass;
    prepared_name text;
    conditions    text;
BEGIN
    FOR item, position IN
        SELECT e.value, (e.i - 1)::int
          FROM pg_catalog.jsonb_array_elements(checks) WITH ORDINALITY AS e(value, i)
         WHERE positions IS NULL OR e.i OPERATOR(pg_catalog.=) ANY (positions)
         ORDER BY e.i
    LOOP
        IF item->>'role' IS NULL OR item->>'role' NOT IN ('anon', 'authenticated', 'service_role') THEN
            RAISE EXCEPTION 'realtime.visible_rows: % is not a client role', item->>'role'
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
        relation := (item->>'relation')::regclass;
        IF last_relation IS DISTINCT FROM relation THEN
            prepared_name := 'realtime_visible_by_key_' || relation::oid;
            IF NOT EXISTS (SELECT FROM pg_catalog.pg_prepared_statements AS p WHERE p.name = prepared_name) THEN
                conditions := realtime.key_conditions(relation, 't', 'k.v');
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
    END LOOP;
END
$$;

-- `alias.pk1 = (keys->>0)::type AND ...`: the primary key against one row's key
-- values (text, in key order). Names and types are the catalog's own.
CREATE FUNCTION realtime.key_conditions(relation regclass, alias text, keys text)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = ''
AS $$
DECLARE
    conditions text;
BEGIN
    SELECT pg_catalog.string_agg(
               pg_catalog.format('%I.%I = (%s->>%s)::%s', alias, a.attname, keys, n.i - 1,
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
    RETURN conditions;
END
$$;

-- A policy's deparsed expression with auth.uid(), auth.jwt() and auth.role()
-- replaced by the subscriber's values, and how many calls were replaced.
-- Text inside '...' and "..." is copied as it is (both double their quote
-- character to escape it, which is how the deparser writes them).
CREATE FUNCTION realtime.subscriber_expression(expression text, OUT rewritten text, OUT replaced int)
LANGUAGE plpgsql IMMUTABLE
SET search_path = ''
AS $$
DECLARE
    -- The accessors' bodies (0010), over realtime_subscriber.claims (jsonb, NULL
    -- when the claims are empty): an empty claim is NULL, `sub` is cast to uuid.
    accessors CONSTANT text[] := ARRAY['auth.uid()', 'auth.jwt()', 'auth.role()'];
    replacements CONSTANT text[] := ARRAY[
        '(CASE WHEN (realtime_subscriber.claims OPERATOR(pg_catalog.->>) ''sub'') OPERATOR(pg_catalog.<>) '''' '
            'THEN realtime_subscriber.claims OPERATOR(pg_catalog.->>) ''sub'' END)::pg_catalog.uuid',
        'realtime_subscriber.claims',
        '(CASE WHEN (realtime_subscriber.claims OPERATOR(pg_catalog.->>) ''role'') OPERATOR(pg_catalog.<>) '''' '
            'THEN realtime_subscriber.claims OPERATOR(pg_catalog.->>) ''role'' END)'];
    total CONSTANT int := pg_catalog.length(expression);
    position int := 1;
    quote text;
    ch text;
    j int;
    matched boolean;
BEGIN
    rewritten := '';
    replaced := 0;
    WHILE position <= total LOOP
        ch := pg_catalog.substr(expression, position, 1);
        IF quote IS NOT NULL THEN
            rewritten := rewritten || ch;
            IF ch = quote THEN
                IF pg_catalog.substr(expression, position + 1, 1) = quote THEN
                    rewritten := rewritten || quote;
                    position := position + 1;
                ELSE
                    quote := NULL;
                END IF;
            END IF;
            position := position + 1;
            CONTINUE;
        END IF;
        IF ch IN ('''', '"') THEN
            quote := ch;
            rewritten := rewritten || ch;
            position := position + 1;
            CONTINUE;
        END IF;
        matched := false;
        FOR j IN 1 .. 3 LOOP
            IF pg_catalog.substr(expression, position, pg_catalog.length(accessors[j])) = accessors[j]
               AND (position = 1 OR pg_catalog.substr(expression, position - 1, 1) !~ '[[:alnum:]_.$]') THEN
                rewritten := rewritten || replacements[j];
                position := position + pg_catalog.length(accessors[j]);
                replaced := replaced + 1;
                matched := true;
                EXIT;
            END IF;
        END LOOP;
        IF NOT matched THEN
            rewritten := rewritten || ch;
            position := position + 1;
        END IF;
    END LOOP;
    IF quote IS NOT NULL THEN
        rewritten := NULL;  -- unbalanced quotes: not something the deparser writes
    END IF;
END
$$;

-- The policy's USING expression over realtime_subscriber.claims, or NULL when
-- it reads anything else about who runs it (see the top of this file).
CREATE FUNCTION realtime.subscriber_policy(policy oid)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = ''
AS $$
DECLARE
    accessors CONSTANT oid[] := ARRAY['auth.uid()'::pg_catalog.regprocedure, 'auth.jwt()'::pg_catalog.regprocedure,
                                      'auth.role()'::pg_catalog.regprocedure]::oid[];
    relation oid;
    tree     text;
    calls    int := 0;
    accessor oid;
    result   record;
BEGIN
    SELECT p.polrelid, p.polqual::text INTO relation, tree FROM pg_catalog.pg_policy AS p WHERE p.oid = policy;
    -- A subquery over any table (its own included: under RLS that one is an error) reads rows as
    -- the subscriber would; only the per-group path does that.
    IF tree IS NULL OR tree ~ '\{(SQLVALUEFUNCTION|PARAM|CURRENTOFEXPR|NEXTVALEXPR)[ }]' OR tree ~ ' :rtekind 0 ' THEN
        RETURN NULL;
    END IF;
    IF EXISTS (
        SELECT FROM pg_catalog.pg_depend AS d
         WHERE d.classid = 'pg_catalog.pg_policy'::pg_catalog.regclass AND d.objid = policy
           AND NOT (
                   (d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.refobjid = relation)
                OR (d.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
                    AND (d.refobjid = ANY (accessors)
                         OR EXISTS (SELECT FROM pg_catalog.pg_proc AS f
                                     WHERE f.oid = d.refobjid AND f.pronamespace = 'pg_catalog'::pg_catalog.regnamespace
                                       AND f.provolatile = 'i')))
                OR (d.refclassid = 'pg_catalog.pg_operator'::pg_catalog.regclass
                    AND EXISTS (SELECT FROM pg_catalog.pg_operator AS o JOIN pg_catalog.pg_proc AS f ON f.oid = o.oprcode
                                 WHERE o.oid = d.refobjid AND f.pronamespace = 'pg_catalog'::pg_catalog.regnamespace
                                   AND f.provolatile = 'i'))
                OR (d.refclassid = 'pg_catalog.pg_type'::pg_catalog.regclass
                    AND EXISTS (SELECT FROM pg_catalog.pg_type AS t
                                 WHERE t.oid = d.refobjid AND t.typnamespace = 'pg_catalog'::pg_catalog.regnamespace))
                OR d.refclassid = 'pg_catalog.pg_collation'::pg_catalog.regclass))
    THEN
        RETURN NULL;
    END IF;
    FOREACH accessor IN ARRAY accessors LOOP
        calls := calls + (pg_catalog.length(tree) - pg_catalog.length(pg_catalog.replace(tree, ' :funcid ' || accessor || ' ', '')))
                         / pg_catalog.length(' :funcid ' || accessor || ' ');
    END LOOP;
    result := realtime.subscriber_expression(
        (SELECT pg_catalog.pg_get_expr(p.polqual, p.polrelid) FROM pg_catalog.pg_policy AS p WHERE p.oid = policy));
    IF result.rewritten IS NULL OR result.replaced <> calls THEN
        RETURN NULL;
    END IF;
    RETURN result.rewritten;
END
$$;

-- The query that decides, for every check of one (table, role) group, which of
-- its rows are visible: 'none' when the role sees nothing, NULL when the group
-- must take the per-group path. $1 is the checks, $2 the group's positions.
CREATE FUNCTION realtime.batch_query(relation regclass, role text)
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
BEGIN
    -- The batch reads the table as the caller: only a caller that bypasses RLS sees what the policy decides.
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles AS r WHERE r.rolname = current_user AND (r.rolsuper OR r.rolbypassrls)) THEN
        RETURN NULL;
    END IF;
    IF role_oid IS NULL OR NOT pg_catalog.has_table_privilege(role_oid, relation, 'SELECT') THEN
        RETURN 'none';
    END IF;
    -- Named after the versions of the rows it was built from.
    SELECT 'realtime.batch_' || relation::oid || '_' || role || '_'
           || pg_catalog.left(pg_catalog.md5(c.xmin::text || c.cmin::text || c.ctid::text || coalesce((
                  SELECT pg_catalog.string_agg(p.oid::text || ':' || p.xmin::text || ':' || p.cmin::text || p.ctid::text, ',' ORDER BY p.oid)
                    FROM pg_catalog.pg_policy AS p WHERE p.polrelid = relation), '')), 16)
      INTO setting
      FROM pg_catalog.pg_class AS c WHERE c.oid = relation;
    cached := pg_catalog.current_setting(setting, true);
    IF cached IS NOT NULL AND cached <> '' THEN
        RETURN CASE WHEN cached = 'per-group' THEN NULL ELSE cached END;
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
            expression := realtime.subscriber_policy(policy.oid);
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
        predicate := ' AND ((' || pg_catalog.array_to_string(permissive, ') OR (') || '))';
        IF pg_catalog.cardinality(restrictive) > 0 THEN
            predicate := predicate || ' AND (' || pg_catalog.array_to_string(restrictive, ') AND (') || ')';
        END IF;
    END IF;

    -- The table under its own name, so an expression that names it still resolves.
    SELECT c.relname INTO alias FROM pg_catalog.pg_class AS c WHERE c.oid = relation;
    statement := pg_catalog.format(
        'SELECT (realtime_check.i - 1)::int, (realtime_key.i - 1)::int '
        'FROM pg_catalog.unnest($2::int[]) AS realtime_check(i) '
        'CROSS JOIN LATERAL (SELECT $1 OPERATOR(pg_catalog.->) (realtime_check.i - 1) AS v OFFSET 0) AS realtime_item '
        'CROSS JOIN LATERAL (SELECT (CASE WHEN (realtime_item.v OPERATOR(pg_catalog.->>) ''claims'') OPERATOR(pg_catalog.<>) '''' '
            'THEN realtime_item.v OPERATOR(pg_catalog.->>) ''claims'' END)::pg_catalog.jsonb AS claims OFFSET 0) AS realtime_subscriber '
        'CROSS JOIN LATERAL pg_catalog.jsonb_array_elements(realtime_item.v OPERATOR(pg_catalog.->) ''keys'') '
            'WITH ORDINALITY AS realtime_key(v, i) '
        'CROSS JOIN LATERAL (SELECT FROM %s AS %I WHERE %s%s LIMIT 1) AS realtime_found',
        relation, alias, realtime.key_conditions(relation, alias, 'realtime_key.v'), coalesce(predicate, ''));
    -- Planned once here, so an expression the batch cannot run takes the per-group path for good.
    BEGIN
        EXECUTE 'EXPLAIN ' || statement USING '[]'::jsonb, '{}'::int[];
    EXCEPTION WHEN OTHERS THEN
        PERFORM pg_catalog.set_config(setting, 'per-group', false);
        RETURN NULL;
    END;
    PERFORM pg_catalog.set_config(setting, statement, false);
    RETURN statement;
END
$$;

-- Same contract as before: [{"role", "claims", "relation", "keys"}, ...] in,
-- (check_index, row_index) out, both 0-based. Groups of 8 checks or more whose
-- policies qualify run in one query per (table, role); the rest one by one.
CREATE OR REPLACE FUNCTION realtime.visible_rows(checks jsonb)
RETURNS TABLE (check_index int, row_index int)
LANGUAGE plpgsql
SET search_path = ''
AS $$
DECLARE
    bad_role  text;
    grp       record;
    batch     text;
    leftovers int[] := '{}';
BEGIN
    -- Planning the batch costs about what five checks one by one do: small calls skip it.
    IF pg_catalog.jsonb_array_length(checks) < 8 THEN
        RETURN QUERY SELECT * FROM realtime.visible_rows_one_by_one(checks);
        RETURN;
    END IF;
    SELECT coalesce(e.value->>'role', 'null') INTO bad_role
      FROM pg_catalog.jsonb_array_elements(checks) AS e
     WHERE e.value->>'role' IS NULL OR e.value->>'role' NOT IN ('anon', 'authenticated', 'service_role')
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'realtime.visible_rows: % is not a client role', bad_role
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR grp IN
        SELECT (e.value->>'relation')::regclass AS relation, e.value->>'role' AS role,
               pg_catalog.array_agg(e.i::int ORDER BY e.i) AS positions
          FROM pg_catalog.jsonb_array_elements(checks) WITH ORDINALITY AS e(value, i)
         GROUP BY 1, 2
         ORDER BY pg_catalog.min(e.i)
    LOOP
        batch := CASE WHEN pg_catalog.cardinality(grp.positions) >= 8 THEN realtime.batch_query(grp.relation, grp.role) END;
        IF batch IS NULL THEN
            leftovers := leftovers || grp.positions;
        ELSIF batch <> 'none' THEN
            RETURN QUERY EXECUTE batch USING checks, grp.positions;
        END IF;
    END LOOP;
    IF pg_catalog.cardinality(leftovers) > 0 THEN
        RETURN QUERY SELECT * FROM realtime.visible_rows_one_by_one(checks, leftovers);
    END IF;
END
$$;

REVOKE EXECUTE ON FUNCTION realtime.visible_rows_one_by_one(jsonb, int[]) FROM PUBLIC, anon, authenticated;
REVOKE EXECUTE ON FUNCTION realtime.key_conditions(regclass, text, text) FROM PUBLIC, anon, authenticated;
REVOKE EXECUTE ON FUNCTION realtime.subscriber_expression(text) FROM PUBLIC, anon, authenticated;
REVOKE EXECUTE ON FUNCTION realtime.subscriber_policy(oid) FROM PUBLIC, anon, authenticated;
REVOKE EXECUTE ON FUNCTION realtime.batch_query(regclass, text) FROM PUBLIC, anon, authenticated;
GRANT EXECUTE ON FUNCTION realtime.visible_rows_one_by_one(jsonb, int[]) TO service_role;
GRANT EXECUTE ON FUNCTION realtime.key_conditions(regclass, text, text) TO service_role;
GRANT EXECUTE ON FUNCTION realtime.subscriber_expression(text) TO service_role;
GRANT EXECUTE ON FUNCTION realtime.subscriber_policy(oid) TO service_role;
GRANT EXECUTE ON FUNCTION realtime.batch_query(regclass, text) TO service_role;

import Postgres

/// The catalog queries behind ``SchemaDocumentation/load(schema:on:)``; each returns one JSON value.
extension SchemaDocumentation {
    /// The schema's comment and, for each table and view: comment, writability, columns with
    /// their comments and types, and each API role's privileges (PostgREST's "accessible" test:
    /// owning it, any table privilege, or any column privilege).
    static func tablesQuery(_ schema: String, roles: [String]) -> PostgresQuery {
        // Flat joins, each relation's columns and privileges aggregated once: correlated
        // subqueries per relation took six times as long on a schema of 280 relations.
        """
        WITH RECURSIVE base_types AS (
            SELECT t.oid, t.oid AS base FROM pg_catalog.pg_type AS t WHERE t.typtype <> 'd'
            UNION ALL
            SELECT d.oid, b.base FROM pg_catalog.pg_type AS d JOIN base_types AS b ON b.oid = d.typbasetype WHERE d.typtype = 'd'
        ), relations AS (
            SELECT c.oid, c.relname, c.relkind, c.relowner FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
             WHERE n.nspname = \(schema) AND c.relkind IN ('r', 'v', 'm', 'f', 'p') AND NOT c.relispartition
        ), columns AS (
            SELECT a.attrelid, json_agg(json_build_object(
                     'name', a.attname,
                     'comment', pg_catalog.col_description(a.attrelid, a.attnum),
                     'type', CASE
                         WHEN t.typtype = 'd' AND bt.typnamespace = 'pg_catalog'::regnamespace THEN format_type(bt.oid, NULL)
                         WHEN t.typtype <> 'd' AND t.typnamespace = 'pg_catalog'::regnamespace THEN format_type(a.atttypid, NULL)
                         ELSE format_type(a.atttypid, a.atttypmod) END,
                     'notNull', a.attnotnull OR (t.typtype = 'd' AND t.typnotnull),
                     'maxLength', information_schema._pg_char_max_length(
                         information_schema._pg_truetypid(a.*, t.*), information_schema._pg_truetypmod(a.*, t.*)),
                     'enumLabels', CASE WHEN bt.typtype = 'e' THEN (SELECT json_agg(e.enumlabel ORDER BY e.enumsortorder)
                                      FROM pg_catalog.pg_enum AS e WHERE e.enumtypid = bt.oid) END)
                   ORDER BY a.attnum) AS columns
              FROM relations AS r
              JOIN pg_catalog.pg_attribute AS a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
              JOIN pg_catalog.pg_type AS t ON t.oid = a.atttypid
              JOIN base_types AS b ON b.oid = t.oid
              JOIN pg_catalog.pg_type AS bt ON bt.oid = b.base
             GROUP BY a.attrelid
        ), api_roles AS (
            SELECT r.oid, r.rolname FROM pg_catalog.pg_roles AS r WHERE r.rolname = ANY (string_to_array(\(roles.joined(separator: ",")), ','))
        ), access AS (
            SELECT c.oid, json_object_agg(r.rolname, json_build_object(
                     'any', pg_has_role(r.oid, c.relowner, 'USAGE')
                         OR has_table_privilege(r.oid, c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
                         OR has_any_column_privilege(r.oid, c.oid, 'SELECT, INSERT, UPDATE, REFERENCES'),
                     'select', has_any_column_privilege(r.oid, c.oid, 'SELECT'),
                     'insert', has_any_column_privilege(r.oid, c.oid, 'INSERT'),
                     'update', has_any_column_privilege(r.oid, c.oid, 'UPDATE'),
                     'delete', has_table_privilege(r.oid, c.oid, 'DELETE'))) AS access
              FROM relations AS c CROSS JOIN api_roles AS r
             GROUP BY c.oid
        )
        SELECT json_build_object(
                 'comment', (SELECT pg_catalog.obj_description(n.oid, 'pg_namespace') FROM pg_catalog.pg_namespace AS n WHERE n.nspname = \(schema)),
                 'tables', coalesce((SELECT json_agg(json_build_object(
                     'name', c.relname,
                     'comment', pg_catalog.obj_description(c.oid, 'pg_class'),
                     'columns', coalesce(cols.columns, '[]'),
                     'access', coalesce(acc.access, '{}'))
                   ORDER BY c.relname)
                   FROM relations AS c LEFT JOIN columns AS cols ON cols.attrelid = c.oid LEFT JOIN access AS acc ON acc.oid = c.oid), '[]'))::text
        """
    }

    /// Ordinary functions (as the schema cache reads them) with comment, volatility, input
    /// parameters (required when they have no default), whether `/rpc` can call them, and the
    /// API roles that may execute them.
    static func functionsQuery(_ schema: String, roles: [String]) -> PostgresQuery {
        """
        SELECT coalesce(json_agg(json_build_object(
                 'name', p.proname,
                 'comment', pg_catalog.obj_description(p.oid, 'pg_proc'),
                 'volatility', p.provolatile,
                 'parameters', coalesce(inputs.parameters, '[]'),
                 'callable', coalesce(inputs.unnamed = 0 OR (inputs.unnamed = 1 AND inputs.count = 1 AND inputs.first_type IN (
                     'pg_catalog.bytea'::regtype, 'pg_catalog.json'::regtype, 'pg_catalog.jsonb'::regtype,
                     'pg_catalog.text'::regtype, 'pg_catalog.xml'::regtype)), true),
                 'roles', coalesce((SELECT json_agg(r.rolname ORDER BY r.rolname) FROM pg_catalog.pg_roles AS r
                                     WHERE r.rolname = ANY (string_to_array(\(roles.joined(separator: ",")), ','))
                                       AND has_function_privilege(r.oid, p.oid, 'EXECUTE')), '[]'))
               ORDER BY p.proname, p.oid), '[]')::text
          FROM pg_catalog.pg_proc AS p
          JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
          LEFT JOIN LATERAL (
              SELECT json_agg(json_build_object(
                       'name', coalesce(arg.name, ''), 'type', arg.typ::regtype::text,
                       'required', arg.position <= p.pronargs - p.pronargdefaults, 'variadic', arg.mode = 'v')
                     ORDER BY arg.position) AS parameters,
                     count(*) AS count, count(*) - count(nullif(arg.name, '')) AS unnamed,
                     (array_agg(arg.typ ORDER BY arg.position))[1] AS first_type
                FROM (SELECT all_args.typ, all_args.mode, all_args.name,
                             row_number() OVER (ORDER BY all_args.ord) AS position
                        FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]),
                                    coalesce(p.proargmodes, array_fill('i'::"char", ARRAY[p.pronargs::int])),
                                    coalesce(p.proargnames, array_fill(''::text, ARRAY[p.pronargs::int])))
                             WITH ORDINALITY AS all_args(typ, mode, name, ord)
                       WHERE all_args.mode IN ('i', 'b', 'v')) AS arg
          ) AS inputs ON true
         WHERE n.nspname = \(schema) AND p.prokind = 'f' AND p.prorettype <> 'pg_catalog.trigger'::regtype
        """
    }
}

import Postgres

/// The catalog queries behind ``SchemaCache/load(schema:on:)``; each returns one JSON array.
extension SchemaCache {
    static func columnsQuery(_ schema: String) -> PostgresQuery {
        """
        SELECT coalesce(json_agg(json_build_object(
                 'table', c.relname, 'isView', c.relkind IN ('v', 'm'), 'name', a.attname,
                 -- Which writes the relation takes (pg_relation_is_updatable's bits: 8 insert, 4 update, 16 delete).
                 'writes', CASE WHEN c.relkind IN ('r', 'p') THEN 28
                                WHEN c.relkind IN ('v', 'f') THEN pg_relation_is_updatable(c.oid::regclass, true) ELSE 0 END,
                 'type', format_type(a.atttypid, a.atttypmod), 'nullable', NOT coalesce(a.attnotnull, false),
                 'defaultValue', CASE
                     WHEN d.adbin IS NULL AND ty.typtype = 'd' THEN pg_get_expr(ty.typdefaultbin, 0)
                     WHEN a.attidentity = 'd' THEN format('nextval(%L)', pg_get_serial_sequence(
                         format('%I.%I', n.nspname, c.relname), a.attname))
                     WHEN a.attgenerated <> '' THEN NULL
                     ELSE pg_get_expr(d.adbin, d.adrelid) END)
               ORDER BY c.relname, a.attnum), '[]')::text
          FROM pg_catalog.pg_class AS c
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
          -- Outer joins: a table of no columns (`CREATE TABLE t ()`) is still a table.
          LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
          LEFT JOIN pg_catalog.pg_type AS ty ON ty.oid = a.atttypid
          LEFT JOIN pg_catalog.pg_attrdef AS d ON d.adrelid = c.oid AND d.adnum = a.attnum
         WHERE n.nspname = \(schema) AND c.relkind IN ('r', 'v', 'm', 'f', 'p') AND NOT c.relispartition
        """
    }

    /// Unique and primary keys of the schema's tables, and primary keys of tables its views (or views
    /// of `others`, the extra search path) read.
    static func keysQuery(_ schema: String, through others: [String] = []) -> PostgresQuery {
        """
        SELECT coalesce(json_agg(json_build_object(
                 'schema', n.nspname, 'table', c.relname, 'primary', con.contype = 'p',
                 'columns', (SELECT json_agg(a.attname ORDER BY k.ord)
                               FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
                               JOIN pg_catalog.pg_attribute AS a ON a.attrelid = con.conrelid AND a.attnum = k.attnum))
               ORDER BY c.relname, con.conname), '[]')::text
          FROM pg_catalog.pg_constraint AS con
          JOIN pg_catalog.pg_class AS c ON c.oid = con.conrelid
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
         WHERE con.contype IN ('p', 'u') AND (n.nspname = \(schema) OR (con.contype = 'p' AND EXISTS (
                   -- the primary keys of hidden tables an exposed view reads: the view may inherit them
                   SELECT 1 FROM pg_catalog.pg_depend AS d
                     JOIN pg_catalog.pg_rewrite AS r ON r.oid = d.objid
                     JOIN pg_catalog.pg_class AS v ON v.oid = r.ev_class
                     JOIN pg_catalog.pg_namespace AS vn ON vn.oid = v.relnamespace
                    WHERE d.refobjid = con.conrelid AND (vn.nspname = \(schema) OR vn.nspname = ANY(\(others)::text[])))))
        """
    }

    /// Foreign keys of the schema's tables, and of tables a view of the schema (or of `others`, the
    /// extra search path) reads.
    static func foreignKeysQuery(_ schema: String, through others: [String] = []) -> PostgresQuery {
        """
        SELECT coalesce(json_agg(json_build_object(
                 'constraint', con.conname, 'table', src.relname, 'foreignTable', dst.relname,
                 'tableSchema', sn.nspname, 'foreignSchema', dn.nspname,
                 'columns', (SELECT json_agg(json_build_array(sa.attname, da.attname) ORDER BY k.ord)
                               FROM unnest(con.conkey, con.confkey) WITH ORDINALITY AS k(s, d, ord)
                               JOIN pg_catalog.pg_attribute AS sa ON sa.attrelid = con.conrelid AND sa.attnum = k.s
                               JOIN pg_catalog.pg_attribute AS da ON da.attrelid = con.confrelid AND da.attnum = k.d))
               ORDER BY src.relname, con.conname), '[]')::text
          FROM pg_catalog.pg_constraint AS con
          JOIN pg_catalog.pg_class AS src ON src.oid = con.conrelid
          JOIN pg_catalog.pg_namespace AS sn ON sn.oid = src.relnamespace
          JOIN pg_catalog.pg_class AS dst ON dst.oid = con.confrelid
          JOIN pg_catalog.pg_namespace AS dn ON dn.oid = dst.relnamespace
         WHERE con.contype = 'f' AND (sn.nspname = \(schema) OR dn.nspname = \(schema) OR EXISTS (
                   SELECT 1 FROM pg_catalog.pg_depend AS d
                     JOIN pg_catalog.pg_rewrite AS r ON r.oid = d.objid
                     JOIN pg_catalog.pg_class AS v ON v.oid = r.ev_class
                     JOIN pg_catalog.pg_namespace AS vn ON vn.oid = v.relnamespace
                    WHERE d.refobjid IN (con.conrelid, con.confrelid) AND (vn.nspname = \(schema) OR vn.nspname = ANY(\(others)::text[]))))
        """
    }

    /// Each exposed view's select rule (`_RETURN`, not the rules a view may add for writes) as
    /// node text, with the table columns it reads: ``ViewRuleTargets`` finds which of them the
    /// view's own columns show as they are. Views of the schemas in `others` (the extra search
    /// path) come too, as PostgREST reads them: an exposed view may read a table through them.
    static func viewRulesQuery(_ schema: String, through others: [String] = []) -> PostgresQuery {
        """
        SELECT coalesce(json_agg(json_build_object(
                 'schema', n.nspname, 'view', v.relname, 'rule', r.ev_action::text,
                 'sources', (SELECT coalesce(json_agg(json_build_object(
                                      'table', d.refobjid::int8, 'column', d.refobjsubid, 'schema', sn.nspname,
                                      'tableName', s.relname, 'columnName', a.attname)), '[]')
                               FROM pg_catalog.pg_depend AS d
                               JOIN pg_catalog.pg_class AS s ON s.oid = d.refobjid
                               JOIN pg_catalog.pg_namespace AS sn ON sn.oid = s.relnamespace
                               JOIN pg_catalog.pg_attribute AS a ON a.attrelid = s.oid AND a.attnum = d.refobjsubid
                              WHERE d.classid = 'pg_catalog.pg_rewrite'::regclass AND d.objid = r.oid
                                AND d.refclassid = 'pg_catalog.pg_class'::regclass AND d.refobjsubid > 0))), '[]')::text
          FROM pg_catalog.pg_class AS v
          JOIN pg_catalog.pg_namespace AS n ON n.oid = v.relnamespace
          JOIN pg_catalog.pg_rewrite AS r ON r.ev_class = v.oid AND r.rulename = '_RETURN'
         WHERE (n.nspname = \(schema) OR n.nspname = ANY(\(others)::text[])) AND v.relkind IN ('v', 'm')
        """
    }

    /// Ordinary functions (not trigger functions, not procedures or aggregates) with their input parameters.
    static func functionsQuery(_ schema: String) -> PostgresQuery {
        """
        SELECT coalesce(json_agg(json_build_object(
                 'name', p.proname,
                 -- char and bit without a length are char(1) and bit(1): arguments are read unbounded instead.
                 'arguments', coalesce((
                     SELECT json_agg(json_build_array(coalesce(arg.name, ''), CASE arg.typ
                                WHEN 'pg_catalog.bpchar'::regtype THEN 'bpchar'
                                WHEN 'pg_catalog._bpchar'::regtype THEN 'bpchar[]'
                                WHEN 'pg_catalog.bit'::regtype THEN 'varbit'
                                WHEN 'pg_catalog._bit'::regtype THEN 'varbit[]'
                                ELSE format_type(arg.typ, NULL) END, arg.mode) ORDER BY arg.ord)
                       FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]),
                                   coalesce(p.proargmodes, array_fill('i'::"char", ARRAY[p.pronargs::int])),
                                   p.proargnames) WITH ORDINALITY AS arg(typ, mode, name, ord)
                      WHERE arg.mode IN ('i', 'b', 'v')), '[]'),
                 'outputs', coalesce((
                     SELECT json_agg(json_build_array(coalesce(arg.name, ''), format_type(arg.typ, NULL)) ORDER BY arg.ord)
                       FROM unnest(p.proallargtypes, p.proargmodes, p.proargnames) WITH ORDINALITY AS arg(typ, mode, name, ord)
                      WHERE arg.mode IN ('o', 'b', 't')), '[]'),
                 'defaults', p.pronargdefaults,
                 'returnsSet', p.proretset,
                 'returnsVoid', p.prorettype = 'pg_catalog.void'::regtype,
                 -- A bare `record` (no OUT columns) is read as a value: its row carries its own column names.
                 'returnsComposite', rt.typtype = 'c' OR coalesce(p.proargmodes && ARRAY['o', 'b', 't']::"char"[], false),
                 'returnTable', (SELECT rc.relname FROM pg_catalog.pg_class AS rc
                                  WHERE rc.oid = rt.typrelid AND rc.relnamespace = n.oid),
                 'volatility', p.provolatile,
                 -- The type's own name: a domain named after a media type (`"text/plain"`) says how to send it.
                 'returnTypeName', t.typname)
               ORDER BY p.proname, p.oid), '[]')::text
          FROM pg_catalog.pg_proc AS p
          JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
          JOIN pg_catalog.pg_type AS t ON t.oid = p.prorettype
          -- A domain over a table's row type returns that table's rows (embeds, select=).
          JOIN pg_catalog.pg_type AS rt ON rt.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
         WHERE n.nspname = \(schema) AND p.prokind = 'f'
           AND p.prorettype <> 'pg_catalog.trigger'::regtype
        """
    }

    /// Functions of one table's row (one parameter, of the row type of a table or view of the
    /// schema): computed fields, and when they return rows of such a table, computed relationships.
    static func computedQuery(_ schema: String) -> PostgresQuery {
        """
        SELECT coalesce(json_agg(json_build_object(
                 'function', p.proname, 'table', arg.relname, 'type', format_type(p.prorettype, NULL),
                 'returnTable', ret.relname, 'returnsSet', p.proretset, 'singleRow', NOT p.proretset OR p.prorows = 1)
               ORDER BY p.proname, arg.relname), '[]')::text
          FROM pg_catalog.pg_proc AS p
          JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
          JOIN pg_catalog.pg_class AS arg ON arg.reltype = p.proargtypes[0] AND arg.relnamespace = n.oid
          LEFT JOIN pg_catalog.pg_class AS ret ON ret.reltype = p.prorettype AND ret.relnamespace = n.oid
               AND ret.relkind IN ('r', 'v', 'm', 'f', 'p')
         WHERE n.nspname = \(schema) AND p.prokind = 'f' AND p.pronargs = 1 AND arg.relkind IN ('r', 'v', 'm', 'f', 'p')
        """
    }

    /// Implicit casts through a function between a domain and json or text, that the loading
    /// role may execute (PostgREST's data representations).
    static func representationsQuery() -> PostgresQuery {
        """
        SELECT coalesce(json_agg(json_build_object(
                 'source', format_type(c.castsource, NULL), 'target', format_type(c.casttarget, NULL),
                 'schema', pn.nspname, 'function', p.proname)), '[]')::text
          FROM pg_catalog.pg_cast AS c
          JOIN pg_catalog.pg_type AS s ON s.oid = c.castsource
          JOIN pg_catalog.pg_type AS t ON t.oid = c.casttarget
          JOIN pg_catalog.pg_proc AS p ON p.oid = c.castfunc
          JOIN pg_catalog.pg_namespace AS pn ON pn.oid = p.pronamespace
         WHERE c.castcontext = 'i' AND c.castmethod = 'f' AND has_function_privilege(c.castfunc, 'execute')
           AND ((s.typtype = 'd' AND c.casttarget IN ('pg_catalog.json'::regtype, 'pg_catalog.text'::regtype))
             OR (t.typtype = 'd' AND c.castsource IN ('pg_catalog.json'::regtype, 'pg_catalog.text'::regtype)))
        """
    }

    /// Every domain with the type it is over (`[[domain, base], …]`), to see through domains of domains.
    /// Each role's settings that any user may change (`pg_settings.context = 'user'`: a role
    /// setting anything else would fail every request), as `{role: {name: value}}`; a
    /// database's own setting wins over the cluster-wide one. `default_transaction_isolation`
    /// applies to transactions, not to a statement, and is left out as PostgREST leaves it.
    static func roleSettingsQuery() -> PostgresQuery {
        """
        SELECT coalesce(json_object_agg(t.rolname, t.settings), '{}')::text FROM (
          SELECT e.rolname, json_object_agg(e.name, e.value) AS settings FROM (
            SELECT DISTINCT ON (r.rolname, p.name) r.rolname, p.name,
                   pg_catalog.substr(c.entry, pg_catalog.strpos(c.entry, '=') + 1) AS value
              FROM pg_catalog.pg_db_role_setting AS s
              JOIN pg_catalog.pg_roles AS r ON r.oid = s.setrole,
                   pg_catalog.unnest(s.setconfig) AS c(entry)
              JOIN pg_catalog.pg_settings AS p
                ON p.name = pg_catalog.substr(c.entry, 1, pg_catalog.strpos(c.entry, '=') - 1) AND p.context = 'user'
             WHERE s.setdatabase IN (0, (SELECT d.oid FROM pg_catalog.pg_database AS d WHERE d.datname = pg_catalog.current_database()))
               AND p.name <> 'default_transaction_isolation'
             ORDER BY r.rolname, p.name, s.setdatabase DESC) AS e
           GROUP BY e.rolname) AS t
        """
    }

    /// PostgREST's in-database configuration: the `pgrst.*` settings of the role the worker logs in
    /// as (`ALTER ROLE authenticator SET pgrst.db_pre_request = 'public.check_request'`), a
    /// database's own winning over the cluster-wide one, as `{"db_pre_request": "…"}`. Settings
    /// on the database alone do not count, as in PostgREST.
    static func inDatabaseSettingsQuery() -> PostgresQuery {
        """
        SELECT coalesce(json_object_agg(e.name, e.value), '{}')::text FROM (
          SELECT DISTINCT ON (name) pg_catalog.substr(c.entry, 7, pg_catalog.strpos(c.entry, '=') - 7) AS name,
                 pg_catalog.substr(c.entry, pg_catalog.strpos(c.entry, '=') + 1) AS value
            FROM pg_catalog.pg_db_role_setting AS s, pg_catalog.unnest(s.setconfig) AS c(entry)
           WHERE s.setrole = (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = current_user)
             AND s.setdatabase IN (0, (SELECT d.oid FROM pg_catalog.pg_database AS d WHERE d.datname = pg_catalog.current_database()))
             AND c.entry LIKE 'pgrst.%=%'
           ORDER BY name, s.setdatabase DESC) AS e
        """
    }

    /// Every type's name but pseudo-types' (`record`, `void`, …): what a `::cast` may name. A
    /// type outside the request's search path then fails in Postgres, as it does in PostgREST.
    static func typeNamesQuery() -> PostgresQuery {
        "SELECT coalesce(json_agg(DISTINCT t.typname), '[]')::text FROM pg_catalog.pg_type AS t WHERE t.typtype <> 'p'"
    }

    static func domainsQuery() -> PostgresQuery {
        """
        SELECT coalesce(json_agg(json_build_array(format_type(t.oid, NULL), format_type(t.typbasetype, NULL))), '[]')::text
          FROM pg_catalog.pg_type AS t
         WHERE t.typtype = 'd'
        """
    }

    /// The schema's media type handlers: aggregates of one argument (a relation's row type, or
    /// `anyelement`) that return a domain named like a media type, and functions returning one
    /// value of such a domain.
    static func mediaHandlersQuery(_ schema: String) -> PostgresQuery {
        """
        WITH media_types AS (
            SELECT t.oid, lower(t.typname) AS media_type, t.typbasetype = 'pg_catalog.bytea'::regtype AS is_binary
              FROM pg_catalog.pg_type AS t
             WHERE t.typtype = 'd' AND (t.typname ~ '^[A-Za-z0-9.-]+/[A-Za-z0-9.+-]+$' OR t.typname = '*/*')
        )
        SELECT coalesce(json_agg(json_build_object(
                 'aggregate', handler.aggregate, 'target', handler.target,
                 'mediaType', handler.media_type, 'isBinary', handler.is_binary)
               ORDER BY handler.aggregate IS NULL, handler.aggregate, handler.target), '[]')::text
          FROM (SELECT p.proname::text AS aggregate, rel.relname::text AS target, mt.media_type, mt.is_binary
                  FROM pg_catalog.pg_proc AS p
                  JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
                  JOIN pg_catalog.pg_aggregate AS agg ON agg.aggfnoid = p.oid
                  JOIN media_types AS mt ON mt.oid = p.prorettype
                  LEFT JOIN pg_catalog.pg_class AS rel ON rel.reltype = p.proargtypes[0] AND rel.relnamespace = n.oid
                       AND rel.relkind IN ('r', 'v', 'm', 'f', 'p')
                 WHERE n.nspname = \(schema) AND p.pronargs = 1
                   AND (rel.oid IS NOT NULL OR p.proargtypes[0] = 'pg_catalog.anyelement'::regtype)
                UNION ALL
                SELECT NULL, p.proname::text, mt.media_type, mt.is_binary
                  FROM pg_catalog.pg_proc AS p
                  JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
                  JOIN media_types AS mt ON mt.oid = p.prorettype
                 WHERE n.nspname = \(schema) AND p.prokind = 'f' AND NOT p.proretset) AS handler
        """
    }

    /// The schema of PostGIS's `ST_AsGeoJSON(record, …)`, when it is installed (an empty array otherwise).
    static func geoJSONFunctionQuery() -> PostgresQuery {
        """
        SELECT coalesce(json_agg(n.nspname ORDER BY n.nspname), '[]')::text
          FROM pg_catalog.pg_proc AS p
          JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
         WHERE p.proname = 'st_asgeojson' AND p.proargtypes[0] = 'pg_catalog.record'::regtype
        """
    }
}

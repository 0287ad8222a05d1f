import Foundation
import Postgres

extension SchemaCache {
    /// Reads the exposed schema from the catalog in one transaction (a consistent snapshot);
    /// with `documenting`, also what its OpenAPI description needs (``SchemaDocumentation``).
    public static func load(
        schema: String = "public", searching extraSchemas: [String] = [], documenting: Bool = false, on connection: PostgresConnection
    ) async throws -> SchemaCache {
        try await connection.withTransaction { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            // No search path, as PostgREST reads its cache: type names and expressions come out
            // qualified (`public.my_type`), so they mean the same whatever a request searches.
            try await connection.query("SELECT set_config('search_path', '', true)")
            let columns: [CatalogColumn] = try await json(Self.columnsQuery(schema), on: connection)
            let others = extraSchemas.filter { $0 != schema }
            let keys: [CatalogKey] = try await json(Self.keysQuery(schema, through: others), on: connection)
            let foreignKeys: [CatalogForeignKey] = try await json(Self.foreignKeysQuery(schema, through: others), on: connection)
            let functions: [CatalogFunction] = try await json(Self.functionsQuery(schema), on: connection)
            let viewRules: [CatalogViewRule] = try await json(Self.viewRulesQuery(schema, through: others), on: connection)
            let viewColumns = viewRules.flatMap(\.columns)
            let computed: [CatalogComputed] = try await json(Self.computedQuery(schema), on: connection)
            let casts: [CatalogCast] = try await json(Self.representationsQuery(), on: connection)
            let domains: [[String]] = try await json(Self.domainsQuery(), on: connection)
            var cache = SchemaCache(
                schema: schema, columns: columns, keys: keys, foreignKeys: foreignKeys, functions: functions, viewColumns: viewColumns,
                computed: computed, casts: casts, domains: domains)
            cache.mediaHandlers = MediaHandlers(try await json(Self.mediaHandlersQuery(schema), on: connection))
            let postGIS: [String] = try await json(Self.geoJSONFunctionQuery(), on: connection)
            if let functionSchema = postGIS.first { cache.mediaHandlers.addGeoJSON(functionSchema: functionSchema) }
            if documenting { cache.documentation = try await SchemaDocumentation.load(schema: schema, on: connection) }
            cache.roleSettings = try await json(Self.roleSettingsQuery(), on: connection) as [String: [String: String]]
            cache.inDatabaseSettings = try await json(Self.inDatabaseSettingsQuery(), on: connection) as [String: String]
            cache.typeNames = Set(try await json(Self.typeNamesQuery(), on: connection) as [String])
            return cache
        }
    }

    private static func json<T: Decodable>(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> T {
        let result = try await connection.query(query)
        let text = try result[0].decode(String.self, at: 0)
        return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    init(
        schema: String, columns: [CatalogColumn], keys: [CatalogKey], foreignKeys: [CatalogForeignKey], functions: [CatalogFunction],
        viewColumns: [CatalogViewColumn] = [], computed: [CatalogComputed] = [], casts: [CatalogCast] = [], domains: [[String]] = []
    ) {
        var tables: [String: TableInfo] = [:]
        for column in columns {
            var table = tables[column.table] ?? TableInfo(name: column.table, isView: column.isView, columns: [], primaryKey: [], uniqueKeys: [])
            table.writes = TableInfo.Writes(rawValue: column.writes)
            if let name = column.name, let type = column.type {
                table.columns.append(ColumnInfo(name: name, type: type, isNullable: column.nullable, defaultExpression: column.defaultValue))
            }
            tables[column.table] = table
        }
        Self.addRepresentations(casts, to: &tables)
        Self.addBaseTypes(domains: domains, to: &tables)
        for key in keys where key.schema == schema && tables[key.table] != nil {
            if key.primary { tables[key.table]?.primaryKey = key.columns }
            tables[key.table]?.uniqueKeys.append(key.columns)
        }
        var relationships: [String: [Relationship]] = [:]
        for foreignKey in foreignKeys
        where foreignKey.tableSchema == schema && foreignKey.foreignSchema == schema
            && tables[foreignKey.table] != nil && tables[foreignKey.foreignTable] != nil
        {
            let pairs = foreignKey.columns.map { ($0[0], $0[1]) }
            let sourceColumns = Set(pairs.map(\.0))
            let isOneToOne = tables[foreignKey.table]!.uniqueKeys.contains { Set($0) == sourceColumns }
            relationships[foreignKey.table, default: []].append(Relationship(
                table: foreignKey.table, foreignTable: foreignKey.foreignTable, constraint: foreignKey.constraint, columns: pairs,
                cardinality: isOneToOne ? .oneToOne : .manyToOne, holdsForeignKey: true))
            relationships[foreignKey.foreignTable, default: []].append(Relationship(
                table: foreignKey.foreignTable, foreignTable: foreignKey.table, constraint: foreignKey.constraint,
                columns: pairs.map { ($0.1, $0.0) }, cardinality: isOneToOne ? .oneToOne : .oneToMany, holdsForeignKey: false))
        }
        // A table whose foreign keys all lead to hidden tables still has relationships, none
        // embeddable: a missing embed from it suggests no other table (as PostgREST's hint).
        for foreignKey in foreignKeys {
            for (tableSchema, table) in [(foreignKey.tableSchema, foreignKey.table), (foreignKey.foreignSchema, foreignKey.foreignTable)]
            where tableSchema == schema && tables[table] != nil {
                relationships[table, default: []] += []
            }
        }
        let views = ViewSources(schema: schema, tables: tables, columns: viewColumns)
        let hiddenPrimaryKeys = Dictionary(
            keys.filter { $0.primary && $0.schema != schema }.map { (ViewSources.Relation(schema: $0.schema, name: $0.table), $0.columns) },
            uniquingKeysWith: { first, _ in first })
        for (view, primaryKey) in views.primaryKeys(hiddenTables: hiddenPrimaryKeys) where tables[view]?.primaryKey.isEmpty == true {
            tables[view]?.primaryKey = primaryKey
        }
        for (table, throughViews) in views.relationships(foreignKeys: foreignKeys) {
            relationships[table, default: []].append(contentsOf: throughViews)
        }
        for (table, junctions) in Self.manyToMany(tables: tables, relationships: relationships) {
            relationships[table, default: []].append(contentsOf: junctions)
        }
        Self.addComputed(computed, schema: schema, tables: &tables, relationships: &relationships)
        var byName: [String: [FunctionInfo]] = [:]
        for function in functions where Self.isCallable(parameters: function.arguments) {
            let inputs = function.arguments
            let firstDefault = inputs.count - function.defaults
            byName[function.name, default: []].append(FunctionInfo(
                name: function.name,
                parameters: inputs.enumerated().map { 
                    FunctionInfo.Parameter(name: $1[0], type: $1[1], hasDefault: $0 >= firstDefault, isVariadic: $1.count > 2 && $1[2] == "v")
                },
                returnsSet: function.returnsSet, returnsScalar: !function.returnsComposite && !function.returnsVoid,
                returnsVoid: function.returnsVoid, returnTable: function.returnTable,
                outputColumns: function.outputs.map { ColumnInfo(name: $0[0], type: $0[1], isNullable: true, defaultExpression: nil) },
                volatility: function.volatility, returnTypeName: function.returnTypeName))
        }
        self.init(schema: schema, tables: tables, relationships: relationships, functions: byName)
    }
}

extension SchemaCache {
    /// Whether `/rpc` can call a function with these input parameters (`[[name, type, …]]`), as
    /// PostgREST decides which functions to cache: every parameter named (arguments go by name),
    /// or one unnamed parameter of a type a whole body is passed as. Others are not in the cache:
    /// calling one is PGRST202, and it is no function's suggestion.
    static func isCallable(parameters: [[String]]) -> Bool {
        let unnamed = parameters.filter { $0[0].isEmpty }
        if unnamed.isEmpty { return true }
        return parameters.count == 1 && ["bytea", "json", "jsonb", "text", "xml"].contains(unnamed[0][1])
    }

    /// Many-to-many relationships, by origin: for each table whose primary key holds two of its
    /// many-to-one foreign keys, the two tables they reference, each seen from the other.
    static func manyToMany(tables: [String: TableInfo], relationships: [String: [Relationship]]) -> [String: [Relationship]] {
        var result: [String: [Relationship]] = [:]
        for (name, table) in tables.sorted(by: { $0.key < $1.key }) where !table.primaryKey.isEmpty {
            let primaryKey = Set(table.primaryKey)
            let keys = (relationships[name] ?? []).filter { $0.cardinality == .manyToOne && !$0.isSelf }
            for source in keys {
                for target in keys where target.constraint != source.constraint {
                    let used = Set(source.columns.map(\.0) + target.columns.map(\.0))
                    guard used.isSubset(of: primaryKey) else { continue }
                    let junction = Junction(
                        table: name, sourceConstraint: source.constraint, targetConstraint: target.constraint,
                        sourceColumns: source.columns.map { ($0.1, $0.0) }, targetColumns: target.columns.map { ($0.1, $0.0) })
                    result[source.foreignTable, default: []].append(Relationship(
                        table: source.foreignTable, foreignTable: target.foreignTable, constraint: "", columns: [],
                        cardinality: .manyToMany, holdsForeignKey: false, junction: junction))
                }
            }
        }
        return result
    }
}

/// Rows of the catalog queries, decoded from the JSON each query aggregates them into.
struct CatalogColumn: Decodable {
    var table: String
    var isView: Bool
    /// ``TableInfo/Writes`` bits.
    var writes: Int
    /// nil (with `type`) for the one row of a table that has no columns.
    var name: String?
    var type: String?
    var nullable: Bool
    var defaultValue: String?
}

struct CatalogKey: Decodable {
    var schema: String
    var table: String
    var primary: Bool
    var columns: [String]
}

struct CatalogForeignKey: Decodable {
    var constraint: String
    var table: String
    var foreignTable: String
    var tableSchema: String
    var foreignSchema: String
    /// `[[column, foreign column], …]` in key order.
    var columns: [[String]]
}

struct CatalogFunction: Decodable {
    var name: String
    /// `[[name, type, mode], …]` of the input parameters (mode `v` for `VARIADIC`).
    var arguments: [[String]]
    var defaults: Int
    var returnsSet: Bool
    var returnsVoid: Bool
    var returnsComposite: Bool
    var returnTable: String?
    var volatility: FunctionInfo.Volatility
    var returnTypeName: String?
    /// `[[name, type], …]` of the `OUT`/`INOUT`/`TABLE` parameters.
    var outputs: [[String]]
}

/// A view's select rule and the table columns it reads (see ``ViewRuleTargets``).
struct CatalogViewRule: Decodable {
    struct Source: Decodable {
        var table: UInt32
        var column: Int
        var schema: String
        var tableName: String
        var columnName: String
    }

    var schema: String
    var view: String
    var rule: String
    var sources: [Source]

    /// The view's columns that show a column of a table as it is.
    var columns: [CatalogViewColumn] {
        ViewRuleTargets.entries(of: rule).compactMap { entry in
            sources.first { $0.table == entry.table && $0.column == entry.column }.map { source in
                CatalogViewColumn(
                    viewSchema: schema, view: view, column: entry.name, sourceSchema: source.schema, sourceTable: source.tableName,
                    sourceColumn: source.columnName)
            }
        }
    }
}

/// One view column that shows a table column as it is (see ``ViewSources``).
struct CatalogViewColumn: Decodable {
    /// The view's schema; nil for the exposed one.
    var viewSchema: String?
    var view: String
    var column: String
    var sourceSchema: String
    var sourceTable: String
    var sourceColumn: String
}

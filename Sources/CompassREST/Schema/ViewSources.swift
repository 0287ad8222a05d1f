/// Which table columns each exposed view shows as they are, and the foreign-key relationships
/// that therefore hold for the view, as PostgREST infers them: a view that shows every column
/// of a foreign key embeds (and is embedded) like the table it reads.
///
/// ```swift
/// let views = ViewSources(schema: "public", tables: tables, columns: catalogViewColumns)
/// let extra = views.relationships(foreignKeys: catalogForeignKeys)   // by origin
/// ```
/// Only a view column that is a plain column of one relation counts (Postgres records that
/// origin in the top-level target list of the view's rewrite rule: see ``ViewRuleTargets``).
struct ViewSources {
    /// A table (or view) by schema and name.
    struct Relation: Hashable {
        var schema: String
        var name: String
    }

    /// An exposed name a table's rows can be read through, with its columns' names there.
    struct Representation {
        var name: String
        /// Column of the table → the columns of this representation that show it (a view may
        /// show one column under several names, each a way to embed).
        var columns: [String: [String]]
    }

    let schema: String
    let tables: [String: TableInfo]
    /// Table → the views that show some of its columns.
    private(set) var representations: [Relation: [Representation]] = [:]

    init(schema: String, tables: [String: TableInfo], columns: [CatalogViewColumn]) {
        self.schema = schema
        self.tables = tables
        // Every view's columns, the exposed schema's and those of the schemas searched after it,
        // which only pass a column on from a table to an exposed view that reads them.
        var origins: [Relation: [String: Relation.Column?]] = [:]
        for column in columns {
            let view = Relation(schema: column.viewSchema ?? schema, name: column.view)
            if view.schema == schema, tables[column.view]?.column(column.column) == nil { continue }
            let origin = Relation.Column(
                relation: Relation(schema: column.sourceSchema, name: column.sourceTable), name: column.sourceColumn)
            let known = origins[view]?[column.column]
            // A view's column names are unique; should two origins claim one, it is dropped rather than guessed.
            origins[view, default: [:]][column.column] = known == nil ? origin : (known! == origin ? origin : nil)
        }
        for (view, mapping) in origins.sorted(by: { ($0.key.schema, $0.key.name) < ($1.key.schema, $1.key.name) }) where view.schema == schema {
            var byTable: [Relation: [String: [String]]] = [:]
            for (viewColumn, origin) in mapping.sorted(by: { $0.key < $1.key }) {
                guard let origin = Self.base(of: origin, origins: origins) else { continue }
                byTable[origin.relation, default: [:]][origin.name, default: []].append(viewColumn)
            }
            for (table, columns) in byTable {
                representations[table, default: []].append(Representation(name: view.name, columns: columns))
            }
        }
    }

    /// A view column's origin followed through views of views to a table (at most 8 levels).
    private static func base(of origin: Relation.Column?, origins: [Relation: [String: Relation.Column?]]) -> Relation.Column? {
        var current = origin
        for _ in 0..<8 {
            guard let column = current else { return nil }
            guard let next = origins[column.relation] else { return column }
            current = next[column.name] ?? nil
        }
        return nil
    }

    /// The relationships each foreign key gives through views, by origin; table-to-table ones are not repeated.
    func relationships(foreignKeys: [CatalogForeignKey]) -> [String: [Relationship]] {
        guard !representations.isEmpty else { return [:] }
        var result: [String: [Relationship]] = [:]
        for foreignKey in foreignKeys {
            let pairs = foreignKey.columns.map { ($0[0], $0[1]) }
            let source = Relation(schema: foreignKey.tableSchema, name: foreignKey.table)
            let target = Relation(schema: foreignKey.foreignSchema, name: foreignKey.foreignTable)
            let sourceColumns = Set(pairs.map(\.0))
            let isOneToOne = source.schema == schema && (tables[source.name]?.uniqueKeys.contains { Set($0) == sourceColumns } ?? false)
            for from in names(of: source, covering: pairs.map(\.0)) {
                for to in names(of: target, covering: pairs.map(\.1)) where from.isView || to.isView {
                    for columns in Self.combinations(pairs.map { (from.representation.columns[$0.0]!, to.representation.columns[$0.1]!) }) {
                        let (origin, destination) = (from.representation.name, to.representation.name)
                        result[origin, default: []].append(Relationship(
                            table: origin, foreignTable: destination, constraint: foreignKey.constraint, columns: columns,
                            cardinality: isOneToOne ? .oneToOne : .manyToOne, holdsForeignKey: true))
                        result[destination, default: []].append(Relationship(
                            table: destination, foreignTable: origin, constraint: foreignKey.constraint, columns: columns.map { ($0.1, $0.0) },
                            cardinality: isOneToOne ? .oneToOne : .oneToMany, holdsForeignKey: false))
                    }
                }
            }
        }
        return result
    }

    /// Every choice of one name per side for each column pair, in order.
    private static func combinations(_ alternatives: [([String], [String])]) -> [[(String, String)]] {
        var result: [[(String, String)]] = [[]]
        for (sources, targets) in alternatives {
            result = result.flatMap { prefix in sources.flatMap { source in targets.map { target in prefix + [(source, target)] } } }
        }
        return result
    }

    /// The primary key each view inherits, as PostgREST infers it: the view's columns that show
    /// the whole primary key of a table it reads (of each such table, in column order), whether
    /// that table is exposed or not (`hiddenTables`: primary keys of tables outside the schema).
    func primaryKeys(hiddenTables: [Relation: [String]] = [:]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for (relation, views) in representations.sorted(by: { ($0.key.schema, $0.key.name) < ($1.key.schema, $1.key.name) }) {
            let primaryKey: [String]
            if relation.schema == schema {
                guard let table = tables[relation.name], !table.isView else { continue }
                primaryKey = table.primaryKey
            } else {
                primaryKey = hiddenTables[relation] ?? []
            }
            guard !primaryKey.isEmpty else { continue }
            for view in views where primaryKey.allSatisfy({ view.columns[$0] != nil }) {
                result[view.name, default: []] += primaryKey.map { view.columns[$0]![0] }
            }
        }
        for (view, keys) in result {
            // In the view's column order, each once.
            let order = tables[view]?.columns.map(\.name) ?? []
            result[view] = order.filter { keys.contains($0) }
        }
        return result
    }

    /// The exposed names that show all of `columns` of `relation`: the table itself (when
    /// exposed) and every view over it that shows them.
    private func names(of relation: Relation, covering columns: [String]) -> [(representation: Representation, isView: Bool)] {
        var names: [(Representation, Bool)] = []
        if relation.schema == schema, let table = tables[relation.name], !table.isView {
            names.append((Representation(name: table.name, columns: Dictionary(columns.map { ($0, [$0]) }, uniquingKeysWith: { first, _ in first })), false))
        }
        for view in representations[relation] ?? [] where columns.allSatisfy({ view.columns[$0] != nil }) {
            names.append((view, true))
        }
        return names
    }
}

extension ViewSources.Relation {
    /// A column of a relation.
    struct Column: Hashable {
        var relation: ViewSources.Relation
        var name: String
    }
}

/// Computed fields and computed relationships, as PostgREST reads them from the catalog: a
/// function whose one parameter is a table's row is a field of that table, and when it returns
/// rows of a table, a relationship named after the function.
extension SchemaCache {
    /// Adds each function of `computed` to its table's fields (when it returns one value) and to
    /// the relationships from its table (when it returns rows of an exposed table). A computed
    /// relationship replaces the foreign-key ones to a table of the function's name, as PostgREST's does.
    static func addComputed(
        _ computed: [CatalogComputed], schema: String, tables: inout [String: TableInfo], relationships: inout [String: [Relationship]]
    ) {
        for entry in computed where tables[entry.table] != nil {
            let field = ComputedField(schema: schema, function: entry.function, table: entry.table, type: entry.type)
            if !entry.returnsSet, tables[entry.table]?.column(entry.function) == nil {
                tables[entry.table]?.computedFields[entry.function] = field
            }
            guard let target = entry.returnTable, tables[target] != nil else { continue }
            var fromTable = relationships[entry.table] ?? []
            fromTable.removeAll { $0.foreignTable == entry.function && $0.function == nil }
            fromTable.append(Relationship(
                table: entry.table, foreignTable: target, constraint: "", columns: [],
                cardinality: entry.singleRow ? .manyToOne : .oneToMany, holdsForeignKey: false, function: field))
            relationships[entry.table] = fromTable
        }
    }
}

/// One function of a table's row (see ``SchemaCache/computedQuery(_:)``).
struct CatalogComputed: Decodable {
    var function: String
    /// The table or view whose row it takes.
    var table: String
    /// Its return type, as `format_type` prints it.
    var type: String
    /// The table or view of the schema whose rows it returns, if any.
    var returnTable: String?
    var returnsSet: Bool
    /// Not a set, or a set declared `ROWS 1`: embedded as one object.
    var singleRow: Bool
}

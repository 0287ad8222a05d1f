/// The document's `definitions` (one per table and view) and its shared `parameters`.
extension OpenAPIDocument {
    /// A table's row: each column's type and format, default, enum labels and length, its comment
    /// with PostgREST's notes on keys; `required` lists the NOT NULL columns.
    func definition(of table: SchemaDocumentation.Table) -> OpenAPIJSON {
        let required = table.columns.filter(\.notNull).map { OpenAPIJSON.string($0.name) }
        return .object([
            ("description", table.comment.map(OpenAPIJSON.string)),
            ("type", "object"),
            ("properties", table.columns.isEmpty ? nil : .object(table.columns.map { ($0.name, property(of: $0, in: table)) })),
            ("required", required.isEmpty ? nil : .array(required)),
        ])
    }

    private func property(of column: SchemaDocumentation.Column, in table: SchemaDocumentation.Table) -> OpenAPIJSON {
        var notes: [String] = []
        if cache.tables[table.name]?.primaryKey.contains(column.name) == true { notes.append("This is a Primary Key.<pk/>") }
        if let (foreignTable, foreignColumn) = foreignKey(from: column.name, of: table.name) {
            notes.append("This is a Foreign Key to `\(foreignTable).\(foreignColumn)`.<fk table='\(foreignTable)' column='\(foreignColumn)'/>")
        }
        var description = column.comment
        if !notes.isEmpty { description = (column.comment.map { $0 + "\n\n" } ?? "") + (["Note:"] + notes).joined(separator: "\n") }
        let defaultExpression = cache.tables[table.name]?.column(column.name)?.defaultExpression
        return .object([
            ("default", defaultExpression.flatMap { OpenAPITypes.defaultValue($0, type: column.type) }),
            ("description", description.map(OpenAPIJSON.string)),
            ("enum", column.enumLabels.map { .array($0.map(OpenAPIJSON.string)) }),
            ("maxLength", column.maxLength.map { .raw(String($0)) }),
        ] + Self.typeMembers(column.type))
    }

    /// A type's `type`, `format` and (for arrays) `items`.
    static func property(type: String) -> OpenAPIJSON {
        .object(typeMembers(type))
    }

    static func typeMembers(_ type: String) -> [(String, OpenAPIJSON?)] {
        [
            ("type", OpenAPITypes.swaggerType(type).map(OpenAPIJSON.string)),
            ("format", .string(OpenAPITypes.format(type))),
            ("items", OpenAPITypes.items(type)),
        ]
    }

    /// The table and column a one-column foreign key from `column` points to; a table before a
    /// view showing it, as PostgREST prefers.
    private func foreignKey(from column: String, of table: String) -> (String, String)? {
        let candidates = (cache.relationships[table] ?? []).filter { relationship in
            relationship.function == nil && relationship.columns.count == 1 && relationship.columns[0].0 == column
                && (relationship.cardinality == .manyToOne || (relationship.cardinality == .oneToOne && relationship.holdsForeignKey))
        }
        let tablesFirst = candidates.enumerated().sorted { lhs, rhs in
            let (left, right) = (cache.tables[lhs.element.foreignTable]?.isView == true, cache.tables[rhs.element.foreignTable]?.isView == true)
            return left == right ? lhs.offset < rhs.offset : !left
        }
        return tablesFirst.first.map { ($0.element.foreignTable, $0.element.columns[0].1) }
    }

    /// The parameters operations refer to: `Prefer` variants, `select`, `order`, paging, each
    /// table's body and one filter per column (`rowFilter.{table}.{column}`).
    func parameters(tables: [SchemaDocumentation.Table]) -> OpenAPIJSON {
        func parameter(_ name: String, _ description: String?, in location: String, extra: [(String, OpenAPIJSON?)] = []) -> OpenAPIJSON {
            .object([
                ("name", .string(name)), ("description", description.map(OpenAPIJSON.string)), ("required", false),
                ("in", .string(location)), ("type", "string"),
            ] + extra)
        }
        func prefer(_ values: [String]) -> OpenAPIJSON {
            parameter("Prefer", "Preference", in: "header", extra: [("enum", values.isEmpty ? nil : .array(values.map(OpenAPIJSON.string)))])
        }
        let returns = ["return=representation", "return=minimal", "return=none"]
        var members: [(String, OpenAPIJSON?)] = [
            ("preferParams", prefer([])),
            ("preferReturn", prefer(returns)),
            ("preferCount", prefer(["count=none"])),
            ("preferPost", prefer(returns + ["resolution=ignore-duplicates", "resolution=merge-duplicates"])),
            ("select", parameter("select", "Filtering Columns", in: "query")),
            ("on_conflict", parameter("on_conflict", "On Conflict", in: "query")),
            ("order", parameter("order", "Ordering", in: "query")),
            ("range", parameter("Range", "Limiting and Pagination", in: "header")),
            ("rangeUnit", parameter("Range-Unit", "Limiting and Pagination", in: "header", extra: [("default", "items")])),
            ("offset", parameter("offset", "Limiting and Pagination", in: "query")),
            ("limit", parameter("limit", "Limiting and Pagination", in: "query")),
        ]
        for table in tables {
            members.append(("body." + table.name, .object([
                ("name", .string(table.name)), ("description", .string(table.name)), ("required", false), ("in", "body"),
                ("schema", .reference("#/definitions/" + table.name)),
            ])))
            for column in table.columns {
                members.append(("rowFilter.\(table.name).\(column.name)", parameter(column.name, column.comment, in: "query")))
            }
        }
        return .object(members)
    }
}

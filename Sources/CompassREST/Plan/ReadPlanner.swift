/// Resolves `select=`, filters, logic trees, orders and ranges against the schema cache
/// into a ``ReadPlan``; any unknown name stops the request here, before SQL exists.
///
/// ```swift
/// let plan = try ReadPlanner(cache: cache).plan(table: table, parameters: parameters, range: range)
/// ```
struct ReadPlanner {
    let cache: SchemaCache
    private var nextAlias = 0

    init(cache: SchemaCache) {
        self.cache = cache
    }

    /// The plan for reading `table` (or the rows a mutation returns from it).
    mutating func plan(
        table: TableInfo, parameters: QueryParameters, range: RowRange, rootFilters: Bool = true
    ) throws(RESTError) -> ReadPlan {
        var root = try node(table: table, alias: table.name, items: parameters.select, path: [], parameters: parameters)
        root.range = range
        for (path, filter) in parameters.filters where rootFilters || !path.isEmpty {
            try update(&root, path: path) { (node: inout ReadPlan) throws(RESTError) in
                try Self.check(filter.field, in: node.table)
                node.conditions.append(.filter(filter))
            }
        }
        for (path, tree) in parameters.logic where rootFilters || !path.isEmpty {
            try update(&root, path: path) { (node: inout ReadPlan) throws(RESTError) in
                try Self.check(tree, in: node.table)
                node.conditions.append(tree)
            }
        }
        for (path, terms) in parameters.order.sorted(by: { $0.key.count < $1.key.count }) {
            try update(&root, path: path) { (node: inout ReadPlan) throws(RESTError) in
                for term in terms { try Self.check(term, in: node) }
                node.order = terms
            }
        }
        return root
    }

    private mutating func node(
        table: TableInfo, alias: String, items: [SelectItem], path: [String], parameters: QueryParameters
    ) throws(RESTError) -> ReadPlan {
        var plan = ReadPlan(table: table, alias: alias, columns: [], embeds: [], conditions: [], order: [], range: .all)
        for item in items {
            switch item {
            case .column(let column):
                if column.isStar {
                    plan.columns.append(PlannedColumn(field: column.field, key: nil, cast: nil))
                    continue
                }
                try Self.check(column.field, in: table)
                plan.columns.append(PlannedColumn(
                    field: column.field, key: column.alias ?? column.field.defaultAlias,
                    cast: try column.cast.map { (cast: String) throws(RESTError) in try CastType.checked(cast) }))
            case .embed(let embed):
                let relationship = try RelationshipResolver(cache: cache).resolve(origin: table.name, target: embed.relation, hint: embed.hint)
                let child = try cache.table(named: relationship.foreignTable)
                nextAlias += 1
                let childPath = path + [embed.name]
                var childPlan = try node(
                    table: child, alias: "pgrst_\(nextAlias)", items: embed.items, path: childPath, parameters: parameters)
                childPlan.range = RowRange(offset: parameters.offsets[childPath] ?? 0, limit: parameters.limits[childPath])
                plan.embeds.append(EmbedPlan(name: embed.name, relationship: relationship, isInner: embed.isInner, plan: childPlan))
            }
        }
        return plan
    }

    /// Applies `change` to the node at `path`, or PGRST108 when no embed has that name.
    private func update(
        _ node: inout ReadPlan, path: ArraySlice<String>, _ change: (inout ReadPlan) throws(RESTError) -> Void
    ) throws(RESTError) {
        guard let first = path.first else { return try change(&node) }
        guard let index = node.embeds.firstIndex(where: { $0.name == first }) else {
            throw .notEmbedded(first)
        }
        try update(&node.embeds[index].plan, path: path.dropFirst(), change)
    }

    private func update(
        _ node: inout ReadPlan, path: [String], _ change: (inout ReadPlan) throws(RESTError) -> Void
    ) throws(RESTError) {
        try update(&node, path: path[...], change)
    }

    /// 400 `42703`, as Postgres reports a column that does not exist.
    static func check(_ field: FieldReference, in table: TableInfo) throws(RESTError) {
        guard table.column(field.name) != nil else {
            throw .undefinedColumn(field.name, table: table.name)
        }
    }

    static func check(_ tree: LogicTree, in table: TableInfo) throws(RESTError) {
        switch tree {
        case .filter(let filter): try check(filter.field, in: table)
        case .group(_, _, let members): for member in members { try check(member, in: table) }
        }
    }

    /// A column of this table, or `relation(column)` of a to-one embed (PGRST118 otherwise).
    static func check(_ term: OrderTerm, in node: ReadPlan) throws(RESTError) {
        guard let relation = term.relation else { return try check(term.field, in: node.table) }
        guard let embed = node.embed(named: relation) else {
            throw .notEmbedded(relation)
        }
        guard embed.relationship.isToOne else {
            throw .relatedOrderNotToOne(table: node.table.name, relation: relation)
        }
        try check(term.field, in: embed.plan.table)
    }
}

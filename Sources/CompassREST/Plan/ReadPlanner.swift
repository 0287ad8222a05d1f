/// Resolves `select=`, filters, logic trees, orders and ranges against the schema cache
/// into a ``ReadPlan``; any unknown name stops the request here, before SQL exists.
///
/// ```swift
/// let plan = try ReadPlanner(cache: cache).plan(table: table, parameters: parameters, range: range)
/// ```
struct ReadPlanner {
    let cache: SchemaCache
    /// Whether `select=` may name aggregates (``RESTConfiguration/allowsAggregates``).
    let allowsAggregates: Bool
    private var nextAlias = 0
    /// The root level's alias (its table's name), which no embed's alias may repeat.
    private var rootAlias = ""

    init(cache: SchemaCache, allowsAggregates: Bool = false) {
        self.cache = cache
        self.allowsAggregates = allowsAggregates
    }

    /// The plan for reading `table` (or the rows a mutation returns from it).
    mutating func plan(
        table: TableInfo, parameters: QueryParameters, range: RowRange, rootFilters: Bool = true
    ) throws(RESTError) -> ReadPlan {
        try checkRelationships(from: table, items: parameters.select)
        if !allowsAggregates, Self.namesAggregate(parameters.select) { throw .aggregatesNotAllowed }
        rootAlias = table.name
        var root = try node(table: table, alias: table.name, items: parameters.select, path: [], parameters: parameters)
        root.range = range
        for (path, filter) in parameters.filters where rootFilters || !path.isEmpty {
            try update(&root, path: path) { (node: inout ReadPlan) throws(RESTError) in
                node.conditions.append(try Self.resolve(.filter(filter), in: node))
            }
        }
        for (path, tree) in parameters.logic where rootFilters || !path.isEmpty {
            try update(&root, path: path) { (node: inout ReadPlan) throws(RESTError) in
                node.conditions.append(try Self.resolve(tree, in: node))
            }
        }
        for (path, terms) in parameters.order.sorted(by: { $0.key.count < $1.key.count }) {
            try update(&root, path: path) { (node: inout ReadPlan) throws(RESTError) in
                node.order = try terms.map { (term: OrderTerm) throws(RESTError) in try Self.resolve(term, in: node) }
            }
        }
        return root
    }

    /// Every embed's relationship, before any column: a request naming both a missing
    /// relationship and a missing column gets PGRST200, as from PostgREST.
    private func checkRelationships(from table: TableInfo, items: [SelectItem]) throws(RESTError) {
        for case .embed(let embed) in items {
            let relationship = try RelationshipResolver(cache: cache).resolve(origin: table.name, target: embed.relation, hint: embed.hint)
            try checkRelationships(from: try cache.table(named: relationship.foreignTable), items: embed.items)
        }
    }

    /// One level; `hoists` marks a to-one spread, whose aggregates its parent applies.
    private mutating func node(
        table: TableInfo, alias: String, items: [SelectItem], path: [String], parameters: QueryParameters, hoists: Bool = false
    ) throws(RESTError) -> ReadPlan {
        var plan = ReadPlan(table: table, alias: alias, columns: [], embeds: [], conditions: [], order: [], range: .all)
        plan.hoistsAggregates = hoists
        for item in items {
            switch item {
            case .column(let column):
                if column.isStar {
                    plan.columns += Self.star(of: table)
                    continue
                }
                plan.columns.append(try Self.planned(column, in: table, catalogTypes: cache.typeNames))
            case .embed(let embed):
                let relationship = try RelationshipResolver(cache: cache).resolve(origin: table.name, target: embed.relation, hint: embed.hint)
                let child = try cache.table(named: relationship.foreignTable)
                nextAlias += 1
                let number = nextAlias  // the child's own embeds count on from here
                let childPath = path + [embed.name]
                var childPlan = try node(
                    table: child, alias: embedAlias(child.name, number: number), items: embed.items, path: childPath, parameters: parameters,
                    hoists: embed.isSpread && relationship.isToOne)
                childPlan.range = RowRange(offset: parameters.offsets[childPath] ?? 0, limit: parameters.limits[childPath])
                if embed.isSpread, !relationship.isToOne, childPlan.containsAggregates { throw .notImplemented(.aggregatesInToManySpread) }
                plan.embeds.append(EmbedPlan(
                    name: embed.name, relationship: relationship, isInner: embed.isInner, plan: childPlan, isSpread: embed.isSpread,
                    joinAlias: "pgrst_\(number)"))
            }
        }
        if plan.isGrouped {
            // Grouping names every other output, so `*` becomes the table's columns.
            plan.columns = plan.columns.flatMap { $0.isStar ? Self.columns(of: table) : [$0] }
            if !allowsAggregates, plan.groupsByOtherOutputs { throw .aggregatesNotAllowed }
        }
        return plan
    }

    /// The embedded table's alias inside its join: its name and the embed's number, `cities_1`,
    /// as PostgREST names embedded tables, so plans read alike (the join itself is `pgrst_N`,
    /// ``EmbedPlan/joinAlias``). Unique in the statement, since the number is; `pgrst_N` instead
    /// where that name would repeat the root's alias or, with the `_junction` of a many-to-many
    /// join, pass Postgres's 63-byte identifier limit.
    private func embedAlias(_ table: String, number: Int) -> String {
        let alias = "\(table)_\(number)"
        let junction = ReadQueryBuilder.junctionAlias(of: alias)
        guard junction.utf8.count <= 63, alias != rootAlias, junction != rootAlias else { return "pgrst_\(number)" }
        return alias
    }

    /// A selected column checked against the table: its cast, its aggregate and the aggregate's
    /// cast from the fixed list; a bare `count` that names no column counts rows, as it does in
    /// PostgREST (Postgres reads `t.count` as `count(t)`).
    private static func planned(
        _ column: SelectColumn, in table: TableInfo, catalogTypes: Set<String>
    ) throws(RESTError) -> PlannedColumn {
        let aggregateCast = try column.aggregateCast.map { (cast: String) throws(RESTError) in try CastType.checked(cast, catalogTypes: catalogTypes) }
        if column.field.name == "*", column.aggregate == .count {
            return PlannedColumn(
                field: column.field, key: column.alias ?? "count", cast: nil, aggregate: .count, aggregateCast: aggregateCast)
        }
        if column.field.name == "count", column.field.jsonPath.isEmpty, column.aggregate == nil, table.column("count") == nil,
            table.computedFields["count"] == nil
        {
            let cast = try column.cast.map { (cast: String) throws(RESTError) in try CastType.checked(cast, catalogTypes: catalogTypes) }
            return PlannedColumn(field: FieldReference(name: "*"), key: column.alias ?? "count", cast: nil, aggregate: .count, aggregateCast: cast)
        }
        let field = try resolve(column.field, in: table)
        return PlannedColumn(
            field: field, key: column.alias ?? column.aggregate?.rawValue ?? column.field.defaultAlias,
            cast: try column.cast.map { (cast: String) throws(RESTError) in try CastType.checked(cast, catalogTypes: catalogTypes) },
            format: field.jsonPath.isEmpty ? table.column(field.name)?.representations.toJSON : nil,
            aggregate: column.aggregate, aggregateCast: aggregateCast)
    }

    /// Whether `select=` names an aggregate at any level (`count` as a bare column aside).
    private static func namesAggregate(_ items: [SelectItem]) -> Bool {
        items.contains { item in
            switch item {
            case .column(let column): column.aggregate != nil
            case .embed(let embed): namesAggregate(embed.items)
            }
        }
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

    /// `*`: as it is, or column by column when a column is shown through its data representation.
    private static func star(of table: TableInfo) -> [PlannedColumn] {
        let star = FieldReference(name: "*")
        guard table.columns.contains(where: { $0.representations.toJSON != nil }) else {
            return [PlannedColumn(field: star, key: nil, cast: nil)]
        }
        return columns(of: table)
    }

    /// Every column of the table, each under its name (through its data representation).
    private static func columns(of table: TableInfo) -> [PlannedColumn] {
        table.columns.map { column in
            PlannedColumn(
                field: FieldReference(name: column.name, columnType: column.type), key: column.name, cast: nil,
                format: column.representations.toJSON)
        }
    }

    /// The field with its column's type (or the computed field it names), or 400 `42703`, as
    /// Postgres reports a column that does not exist.
    static func resolve(_ field: FieldReference, in table: TableInfo) throws(RESTError) -> FieldReference {
        var resolved = field
        if let column = table.column(field.name) {
            // A domain acts as its type: a path reads it as JSON, `fts` takes a tsvector as it is.
            resolved.columnType = column.baseType ?? column.type
            if field.jsonPath.isEmpty { resolved.parser = column.representations.fromText }
        } else if let computed = table.computedFields[field.name] {
            resolved.columnType = computed.type
            resolved.computed = computed
        } else {
            throw .undefinedColumn(field.name, table: table.name)
        }
        return resolved
    }

    /// Every filter of the tree resolved against the level's table; `embed=is.null` and
    /// `embed=not.is.null` on an embed's name test whether the embed found a row (as PostgREST does).
    static func resolve(_ tree: LogicTree, in node: ReadPlan) throws(RESTError) -> LogicTree {
        switch tree {
        case .filter(let filter):
            if filter.field.jsonPath.isEmpty, case .is(let value) = filter.operation, value == .null || value == .notNull,
                let embed = node.embed(named: filter.field.name)
            {
                return .embedPresence(alias: embed.joinAlias, isToOne: embed.relationship.isToOne, present: filter.negated == (value == .null))
            }
            var resolved = filter
            resolved.field = try resolve(filter.field, in: node.table)
            return .filter(resolved)
        case .group(let logicOperator, let negated, let members):
            return .group(logicOperator, negated: negated, try members.map { (member: LogicTree) throws(RESTError) in try resolve(member, in: node) })
        case .embedPresence:
            return tree
        }
    }

    /// A column of this table, or `relation(column)` of a to-one embed (PGRST118 otherwise).
    static func resolve(_ term: OrderTerm, in node: ReadPlan) throws(RESTError) -> OrderTerm {
        var resolved = term
        guard let relation = term.relation else {
            resolved.field = try resolve(term.field, in: node.table)
            return resolved
        }
        guard let embed = node.embed(named: relation) else {
            throw .notEmbedded(relation)
        }
        guard embed.relationship.isToOne else {
            throw .relatedOrderNotToOne(table: node.table.name, relation: relation)
        }
        // A key the embed's level renamed (`...rel(category:name)&order=rel(category)`) orders by that output.
        if term.field.jsonPath.isEmpty, embed.plan.table.column(term.field.name) == nil,
            embed.plan.table.computedFields[term.field.name] == nil, embed.outputKeys.contains(term.field.name)
        {
            return resolved
        }
        resolved.field = try resolve(term.field, in: embed.plan.table)
        return resolved
    }
}

/// Picks the one relationship an embed means, with PostgREST's rules and errors
/// (PGRST200 none, PGRST201 several).
///
/// Without a hint the target may be the related table, a constraint name or a single
/// foreign-key column of the origin; with a hint the target is the table and the hint a
/// constraint or a column on either side. A computed relationship is named by its function.
struct RelationshipResolver {
    let cache: SchemaCache

    func resolve(origin: String, target: String, hint: String?) throws(RESTError) -> Relationship {
        let candidates = cache.relationships[origin] ?? []
        let matches = candidates.filter { fits($0, target: target, hint: hint) }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw noRelationship(origin: origin, target: target, hint: hint) }
        throw .ambiguousEmbedding(origin: origin, target: target, relationships: matches.sorted(by: Self.listedBefore))
    }

    /// PostgREST's order of the candidates it lists: one-to-many, many-to-one, one-to-one,
    /// many-to-many, each by constraint (or junction) name.
    private static func listedBefore(_ lhs: Relationship, _ rhs: Relationship) -> Bool {
        func rank(_ relationship: Relationship) -> (Int, String, String, String) {
            let order: [Relationship.Cardinality] = [.oneToMany, .manyToOne, .oneToOne, .manyToMany]
            let junction = relationship.junction
            return (
                order.firstIndex(of: relationship.cardinality) ?? order.count, junction?.table ?? relationship.constraint,
                junction?.sourceConstraint ?? "", junction?.targetConstraint ?? ""
            )
        }
        return rank(lhs) < rank(rhs)
    }

    private func fits(_ relationship: Relationship, target: String, hint: String?) -> Bool {
        // A computed relationship is named by its function alone, whatever the hint.
        if let function = relationship.function { return target == function.function }
        let originColumn = relationship.columns.count == 1 ? relationship.columns[0].0 : nil
        let foreignColumn = relationship.columns.count == 1 ? relationship.columns[0].1 : nil
        if relationship.isSelf {
            guard let hint else {
                return (target == relationship.foreignTable && relationship.cardinality == .oneToMany)
                    || (target == originColumn && relationship.cardinality == .manyToOne)
            }
            return target == relationship.foreignTable && relationship.cardinality == .oneToMany && hint == foreignColumn
        }
        let foreignIsView = cache.tables[relationship.foreignTable]?.isView ?? false
        let constraint = relationship.junction == nil ? relationship.constraint : nil
        guard let hint else {
            return target == relationship.foreignTable
                || (!foreignIsView && (target == constraint || target == originColumn))
        }
        return target == relationship.foreignTable
            && (hint == constraint || hint == originColumn || hint == foreignColumn || hint == relationship.junction?.table)
    }

    private func noRelationship(origin: String, target: String, hint: String?) -> RESTError {
        var suggestion: (meant: String, insteadOf: String)?
        if let known = cache.relationships[origin] {
            let names = Set(known.map(\.foreignTable))
            if !names.contains(target), let child = FuzzyMatch.best(for: target, among: names, minimumScore: 0.33) {
                suggestion = (child, target)
            }
        } else if let parent = FuzzyMatch.best(for: origin, among: cache.relationships.keys, minimumScore: 0.33) {
            suggestion = (parent, origin)
        }
        return .noRelationship(origin: origin, target: target, hint: hint, schema: cache.schema, suggestion: suggestion)
    }
}

/// Picks the one relationship an embed means, with PostgREST's rules and errors
/// (PGRST200 none, PGRST201 several).
///
/// Without a hint the target may be the related table, a constraint name or a single
/// foreign-key column of the origin; with a hint the target is the table and the hint a
/// constraint or a column on either side.
struct RelationshipResolver {
    let cache: SchemaCache

    func resolve(origin: String, target: String, hint: String?) throws(RESTError) -> Relationship {
        let candidates = cache.relationships[origin] ?? []
        let matches = candidates.filter { fits($0, target: target, hint: hint) }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw noRelationship(origin: origin, target: target, hint: hint) }
        throw ambiguous(origin: origin, target: target, matches)
    }

    private func fits(_ relationship: Relationship, target: String, hint: String?) -> Bool {
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
        guard let hint else {
            return target == relationship.foreignTable
                || (!foreignIsView && (target == relationship.constraint || target == originColumn))
        }
        return target == relationship.foreignTable
            && (hint == relationship.constraint || hint == originColumn || hint == foreignColumn)
    }

    private func noRelationship(origin: String, target: String, hint: String?) -> RESTError {
        let schema = cache.schema
        var suggestion: String?
        if let known = cache.relationships[origin] {
            let names = Set(known.map(\.foreignTable))
            if !names.contains(target), let child = FuzzyMatch.best(for: target, among: names, minimumScore: 0.33) {
                suggestion = "Perhaps you meant '\(child)' instead of '\(target)'."
            }
        } else if let parent = FuzzyMatch.best(for: origin, among: cache.relationships.keys, minimumScore: 0.33) {
            suggestion = "Perhaps you meant '\(parent)' instead of '\(origin)'."
        }
        return RESTError(
            status: 400, code: "PGRST200",
            message: "Could not find a relationship between '\(origin)' and '\(target)' in the schema cache",
            details: "Searched for a foreign key relationship between '\(origin)' and '\(target)"
                + (hint.map { "' using the hint '\($0)" } ?? "")
                + "' in the schema '\(schema)', but no matches were found.",
            hint: suggestion)
    }

    private func ambiguous(origin: String, target: String, _ relationships: [Relationship]) -> RESTError {
        let details = relationships.map { relationship in
            let own = relationship.columns.map(\.0).joined(separator: ", ")
            let foreign = relationship.columns.map(\.1).joined(separator: ", ")
            return "{\"cardinality\":\(JSONText.quoted(relationship.cardinality.rawValue)),"
                + "\"embedding\":\(JSONText.quoted("\(relationship.table) with \(relationship.foreignTable)")),"
                + "\"relationship\":\(JSONText.quoted("\(relationship.constraint) using \(relationship.table)(\(own)) and \(relationship.foreignTable)(\(foreign))"))}"
        }
        var error = RESTError(
            status: 300, code: "PGRST201",
            message: "Could not embed because more than one relationship was found for '\(origin)' and '\(target)'",
            hint: "Try changing '\(target)' to one of the following: "
                + relationships.map { "'\($0.foreignTable)!\($0.constraint)'" }.joined(separator: ", ")
                + ". Find the desired relationship in the 'details' key.")
        error.detailsJSON = "[" + details.joined(separator: ",") + "]"
        return error
    }
}

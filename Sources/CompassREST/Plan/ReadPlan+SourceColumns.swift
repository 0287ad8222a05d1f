extension ReadPlan {
    /// The columns of this level's table that its reply reads, when a write's `RETURNING` can
    /// name them one by one; nil when it needs the whole row (`*`, a computed field or a computed
    /// relationship takes the row). Naming them is what lets a role granted only some columns
    /// write and read back those, as PostgREST answers it.
    func sourceColumns(withKey primaryKey: [String]) -> [String]? {
        var names: [String] = primaryKey
        for column in columns {
            guard !column.isStar, column.field.computed == nil else { return nil }
            names.append(column.field.name)
        }
        for embed in embeds {
            guard embed.relationship.function == nil else { return nil }
            if let junction = embed.relationship.junction {
                names += junction.sourceColumns.map(\.0)
            } else {
                names += embed.relationship.columns.map(\.0)
            }
        }
        for term in order where term.relation == nil {
            guard term.field.computed == nil else { return nil }
            names.append(term.field.name)
        }
        for condition in conditions {
            guard let fields = condition.fieldNames else { return nil }
            names += fields
        }
        var seen: Set<String> = []
        return names.filter { table.column($0) != nil && seen.insert($0).inserted }
    }
}

extension LogicTree {
    /// The columns the tree's filters read; nil when one reads a computed field.
    fileprivate var fieldNames: [String]? {
        switch self {
        case .filter(let filter):
            return filter.field.computed == nil ? [filter.field.name] : nil
        case .group(_, _, let members):
            var names: [String] = []
            for member in members {
                guard let fields = member.fieldNames else { return nil }
                names += fields
            }
            return names
        case .embedPresence:
            return []
        }
    }
}

import CompassTokens

/// One question for Postgres: which of these rows of `table` may `key` (a role and its claims) read?
struct VisibilityCheck: Sendable {
    var table: RealtimeTableMetadata
    var key: AccessClaims.AuthorizationKey
    /// Each row's primary-key values as text, in key-column order.
    var rowKeys: [[String]]
}

/// The fan-out's decision for one batch, as a plain value: which visibility checks to run,
/// and given their answers, which channel receives which change.
///
/// ```swift
/// let plan = VisibilityPlan(changes: parsed, matches: await registry.match(parsed))
/// let answers = try await authorizer.visibleRows(plan.checks)   // the only I/O
/// for (change, receivers) in zip(parsed, plan.receivers(given: answers)) { … }
/// ```
/// The rules: the service role sees everything; a DELETE goes to roles that may read the
/// table's key (the row is gone, so RLS cannot be asked); any other change goes to a
/// channel only if Postgres says its role and claims may read the row. Rows are grouped by
/// (table, role + claims), so a thousand channels with the same token cost one check, and a
/// row two channels of one group both want is asked about once.
struct VisibilityPlan: Sendable {
    /// The checks Postgres must answer, one per (table, role + claims) group.
    private(set) var checks: [VisibilityCheck] = []
    /// For each change, for each of its matches, how it is decided.
    private var decisions: [[Decision]] = []
    private let matches: [[ChannelMatch]]

    private enum Decision: Sendable {
        case allowed
        case denied
        /// Allowed if the answer to check `check` contains row `row`.
        case row(check: Int, row: Int)
    }

    private struct GroupKey: Hashable {
        var table: RealtimeTableName
        var claims: AccessClaims.AuthorizationKey
    }

    /// Plans a batch: `matches[i]` are the channels whose bindings want `changes[i]`.
    init(changes: [ParsedChange], matches: [[ChannelMatch]]) {
        self.matches = matches
        var groups: [GroupKey: Int] = [:]
        // For each group, where each change's row sits in that group's check.
        var rowIndexes: [[Int: Int]] = []
        for (changeIndex, change) in changes.enumerated() {
            var row: [Decision] = []
            for match in matches[changeIndex] {
                let claims = match.channel.claims
                if claims.role == .serviceRole {
                    row.append(.allowed)
                } else if change.change.type == .delete {
                    row.append(change.table.view(for: claims.role).canReadKey ? .allowed : .denied)
                } else if let keys = change.keyTexts {
                    let group = GroupKey(table: change.table.name, claims: claims.authorizationKey)
                    let check: Int
                    if let existing = groups[group] {
                        check = existing
                    } else {
                        check = checks.count
                        groups[group] = check
                        checks.append(VisibilityCheck(table: change.table, key: group.claims, rowKeys: []))
                        rowIndexes.append([:])
                    }
                    if rowIndexes[check][changeIndex] == nil {
                        rowIndexes[check][changeIndex] = checks[check].rowKeys.count
                        checks[check].rowKeys.append(keys)
                    }
                    row.append(.row(check: check, row: rowIndexes[check][changeIndex]!))
                } else {
                    row.append(.denied)  // no complete key: nothing to ask RLS about
                }
            }
            decisions.append(row)
        }
    }

    /// For each change, in order, the matches that receive it given `visible` — for each check,
    /// the indexes of its rows Postgres allowed (what ``RealtimeAuthorizer/visibleRows(_:)`` returns).
    func receivers(given visible: [Set<Int>]) -> [[ChannelMatch]] {
        zip(matches, decisions).map { matches, decisions in
            zip(matches, decisions).compactMap { match, decision in
                switch decision {
                case .allowed: return match
                case .denied: return nil
                case .row(let check, let row): return visible.indices.contains(check) && visible[check].contains(row) ? match : nil
                }
            }
        }
    }
}

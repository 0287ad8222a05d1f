import Postgres

/// Row counts of the application tables, for seed reports and benchmarks.
public enum TableCounts {
    /// The tables a data set fills, in load order.
    public static let tables = [
        "auth.users", "profiles", "family_units", "family_members", "schools", "coaches", "interactions",
        "school_status_history", "documents", "events", "offers", "posts", "likes", "comments", "follows",
        "activities", "parent_activities",
    ]

    /// Exact counts (one statement), keyed by table name without the `public.` schema.
    public static func read(on connection: PostgresConnection) async throws -> [String: Int] {
        let selects = tables.map { table in
            "SELECT '\(table)' AS name, count(*) AS rows FROM \(table.contains(".") ? table : "public." + table)"
        }
        let result = try await connection.query(PostgresQuery(unsafeSQL: selects.joined(separator: "\nUNION ALL\n")))
        var counts: [String: Int] = [:]
        for row in result {
            let (name, rows) = try row.decode((String, Int).self)
            counts[name] = rows
        }
        return counts
    }
}

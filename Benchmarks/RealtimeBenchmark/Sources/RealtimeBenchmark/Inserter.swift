import Foundation
import Postgres

/// Writes activities addressed to bench users, recording when each commit returned.
struct Inserter {
    let database: BenchmarkDatabase
    /// Users 0..<users receive activities; user `users` is... any actor id works.
    let users: Int
    let actor: String

    init(database: BenchmarkDatabase, users: Int, actorIndex: Int) {
        self.database = database
        self.users = users
        self.actor = BenchmarkDatabase.userID(actorIndex)
    }

    /// One row per transaction at `rate` rows per second for `duration`, over `connections` connections.
    func paced(rate: Int, duration: Duration, connections: Int, log: DeliveryLog?) async throws -> Set<String> {
        let total = Int(Double(rate) * duration.seconds)
        let start = ContinuousClock.now
        return try await withThrowingTaskGroup(of: Set<String>.self) { group in
            for lane in 0..<connections {
                group.addTask {
                    let connection = try await database.connect()
                    var ids = Set<String>()
                    var index = lane
                    while index < total {
                        try await Task.sleep(until: start + .seconds(Double(index) / Double(rate)))
                        let id = UUID().uuidString.lowercased()
                        let recipient = BenchmarkDatabase.userID(index % users)
                        try await connection.query(
                            """
                            INSERT INTO public.activities (id, user_id, actor_id, activity_type)
                            VALUES (\(id)::uuid, \(recipient)::uuid, \(actor)::uuid, 'follow')
                            """)
                        log?.committed([id], at: .now)
                        ids.insert(id)
                        index += connections
                    }
                    await connection.close()
                    return ids
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.formUnion($1) }
        }
    }

    /// As fast as possible for `duration`: `batch` rows per INSERT, or one row per transaction when `batch == 1`.
    func flat(out duration: Duration, batch: Int, connections: Int, log: DeliveryLog?) async throws -> Set<String> {
        let deadline = ContinuousClock.now + duration
        return try await withThrowingTaskGroup(of: Set<String>.self) { group in
            for lane in 0..<connections {
                group.addTask {
                    let connection = try await database.connect()
                    var ids = Set<String>()
                    var next = lane * 7919
                    while ContinuousClock.now < deadline {
                        let rowIDs = (0..<batch).map { _ in UUID().uuidString.lowercased() }
                        let recipients = (0..<batch).map { offset in BenchmarkDatabase.userID((next + offset) % users) }
                        next += batch
                        try await connection.query(
                            """
                            INSERT INTO public.activities (id, user_id, actor_id, activity_type)
                            SELECT i, r, \(actor)::uuid, 'follow'
                              FROM unnest(\(rowIDs)::uuid[], \(recipients)::uuid[]) AS t(i, r)
                            """)
                        log?.committed(rowIDs, at: .now)
                        ids.formUnion(rowIDs)
                    }
                    await connection.close()
                    return ids
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.formUnion($1) }
        }
    }
}

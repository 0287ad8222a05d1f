import CompassData
import CompassTestSupport
import Foundation
import Postgres

typealias Demo = DemoFixture

/// Fixtures the data-layer tests build on.
extension DemoFixture {
    /// Runs `body` on a fresh demo database with one superuser connection (for fixtures).
    static func withDatabase<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await withConnection(demoData: true, body)
    }

    /// Runs `body` on a fresh empty (migrated) database.
    static func withEmptyDatabase<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await withConnection(demoData: false, body)
    }

    private static func withConnection<T>(demoData: Bool, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await TestDatabase.with(demoData: demoData) { database in
            let connection = try await database.connect()
            do {
                let value = try await body(connection)
                await connection.close()
                return value
            } catch {
                await connection.close()
                throw error
            }
        }
    }

    /// Creates a user with a profile, as the superuser.
    @discardableResult
    static func createUser(
        _ id: UUID = UUID(), username: String? = nil, role: String? = "athlete", on connection: PostgresConnection
    ) async throws -> UUID {
        let name = username ?? "user_\(id.uuidString.prefix(8).lowercased())"
        try await connection.query("INSERT INTO auth.users (id) VALUES (\(id))")
        try await connection.query(
            "INSERT INTO profiles (user_id, username, full_name, role) VALUES (\(id), \(name), \(name), \(role))")
        return id
    }

    /// Creates a family with members (role per user), as the superuser.
    @discardableResult
    static func createFamily(
        _ members: [(UUID, String)], id: UUID = UUID(), on connection: PostgresConnection
    ) async throws -> UUID {
        try await connection.query("INSERT INTO family_units (id, name) VALUES (\(id), 'Test family')")
        for (user, role) in members {
            try await connection.query(
                "INSERT INTO family_members (family_unit_id, user_id, role) VALUES (\(id), \(user), \(role))")
        }
        return id
    }
}

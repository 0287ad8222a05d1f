import CompassTestSupport
import Foundation
import Postgres
import Testing

/// `compass users …` and `compass keys` through the built binary, against a real database.
@Suite("compass users and keys")
struct UsersCommandTests {
    static func compass(
        _ arguments: [String], _ database: TestDatabase?, stdin: String? = nil, environment: [String: String] = [:]
    ) async throws -> CompassBinary.Run {
        try await CompassBinary.run(arguments, database: database, stdin: stdin, environment: environment)
    }

    /// Whether `password` is the stored bcrypt password of `email`.
    static func passwordMatches(_ email: String, _ password: String, on connection: PostgresConnection) async throws -> Bool {
        try await connection.query("""
            SELECT encrypted_password = extensions.crypt(\(password), encrypted_password) FROM auth.users WHERE email = \(email)
            """).first?.decode(Bool.self, at: 0) ?? false
    }

    @Test func createListSetPasswordAndDelete() async throws {
        try await TestDatabase.with(demoData: true) { database in
            let connection = try await database.connect()
            defer { Task { await connection.close() } }
            let created = try await Self.compass(
                ["users", "create", "--email", " Ana.Lopez@Example.com ", "--password-stdin", "--role", "athlete", "--json"],
                database, stdin: "first password 1\n")
            #expect(created.status == 0, "\(created.stderr)")
            let user = try created.json()
            let id = try #require(user["id"] as? String)
            #expect(user["email"] as? String == "ana.lopez@example.com")
            #expect(user["email_confirmed_at"] is String)
            #expect(try await Self.passwordMatches("ana.lopez@example.com", "first password 1", on: connection))
            // The sign-up trigger gave the account its app profile.
            let profile = try await connection.query("SELECT username, role FROM profiles WHERE user_id = \(UUID(uuidString: id)!)")
            #expect(try profile.first?.decode(String.self, at: 1) == "athlete")
            #expect(try profile.first?.decode(String.self, at: 0).hasPrefix("ana.lopez_") == true)

            let listed = try await Self.compass(["users", "list"], database)
            #expect(listed.status == 0)
            #expect(listed.stdout.contains("ana.lopez@example.com"))
            #expect(listed.stdout.contains("maria.rivera@example.com"))
            // The role column is the profile's: the demo users' metadata holds none.
            let maria = try #require(listed.stdout.split(separator: "\n").first { $0.contains("maria.rivera@example.com") })
            #expect(maria.split(separator: " ").contains("parent"))

            try await connection.query("""
                INSERT INTO auth.sessions (user_id) VALUES (\(UUID(uuidString: id)!))
                """)
            let reset = try await Self.compass(["users", "set-password", id, "--password-stdin"], database, stdin: "second password 2\n")
            #expect(reset.status == 0, "\(reset.stderr)")
            #expect(!reset.stdout.contains("second password 2"))
            #expect(try await Self.passwordMatches("ana.lopez@example.com", "second password 2", on: connection))
            let sessions = try await connection.query("SELECT count(*)::int FROM auth.sessions WHERE user_id = \(UUID(uuidString: id)!)")
            #expect(try sessions.first?.decode(Int.self, at: 0) == 0)

            let deleted = try await Self.compass(["users", "delete", id], database)
            #expect(deleted.status == 0, "\(deleted.stderr)")
            let left = try await connection.query("SELECT count(*)::int FROM auth.users WHERE id = \(UUID(uuidString: id)!)")
            #expect(try left.first?.decode(Int.self, at: 0) == 0)
            let again = try await Self.compass(["users", "delete", id], database)
            #expect(again.status == 2)
            #expect(again.stderr.contains("no user \(id)"))
        }
    }

    @Test func badInputExitsTwoWithOneLineAndWritesNothing() async throws {
        try await TestDatabase.with(demoData: true) { database in
            let connection = try await database.connect()
            defer { Task { await connection.close() } }
            let before = try await connection.query("SELECT count(*)::int FROM auth.users").first?.decode(Int.self, at: 0)
            let cases: [([String], String?, String)] = [
                (["users", "create", "--email", "not-an-email", "--password-stdin"], "long enough\n", "invalid --email 'not-an-email'"),
                (["users", "create", "--email", "x@example.com"], nil, "--password-stdin is required"),
                (["users", "create", "--email", "x@example.com", "--password-stdin"], "abc\n", "too short"),
                (["users", "create", "--email", "x@example.com", "--password-stdin"], "", "no password on standard input"),
                (["users", "create", "--email", "x@example.com", "--password-stdin", "--role", "coach"], "long enough\n", "invalid --role 'coach'"),
                (["users", "delete", "not-a-uuid"], nil, "not-a-uuid"),
                (["users", "set-password", "a1000000-0000-4000-8000-00000000009f", "--password-stdin"], "long enough\n", "no user"),
            ]
            for (arguments, stdin, message) in cases {
                let run = try await Self.compass(arguments, database, stdin: stdin)
                #expect(run.status == 2, "\(arguments): \(run.stderr)")
                #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
                #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
                if let stdin, !stdin.isEmpty { #expect(!run.stderr.contains(stdin.trimmingCharacters(in: .newlines))) }
            }
            let taken = try await Self.compass(
                ["users", "create", "--email", "Sofia.Rivera@example.com", "--password-stdin"], database, stdin: "long enough\n")
            #expect(taken.status == 2)
            #expect(taken.stderr.contains("an account with this email exists"))
            let after = try await connection.query("SELECT count(*)::int FROM auth.users").first?.decode(Int.self, at: 0)
            #expect(before == after)
        }
    }

    @Test func keysPrintsTheDeterministicKeysForTheSecret() async throws {
        let secret = ["COMPASS_JWT_SECRET": "cli-keys-secret-0123456789abcdef0123"]
        let first = try await Self.compass(["keys"], nil, environment: secret)
        let second = try await Self.compass(["keys", "--anon"], nil, environment: secret)
        #expect(try await Self.compass(["keys"], nil, environment: ["COMPASS_JWT_SECRET": ""]).status == 2)
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("anon=ey"))
        #expect(lines[1].hasPrefix("service_role=ey"))
        #expect("anon=" + second.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(lines[0]))
    }
}

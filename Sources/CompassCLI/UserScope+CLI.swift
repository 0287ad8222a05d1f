import ArgumentParser
import CompassData
import Foundation
import Postgres

/// A user as the CLI names them in tables.
struct CLIUser: Sendable {
    var id: UUID
    var username: String
    var fullName: String?

    var displayName: String { fullName.flatMap { $0.isEmpty ? nil : $0 } ?? username }
}

extension DatabaseOptions {
    /// Connects, checks that `userId` exists (as the service role), and runs `body` in that user's RLS scope.
    ///
    /// An unknown user is bad input (exit 2); repository refusals that name a value
    /// (not a parent of that family, no such notification) are bad input too.
    func withUserScope<T>(_ userId: UUID, _ body: (DatabaseScope, CLIUser) async throws -> T) async throws -> T {
        try await withConnection { connection in
            let profile = try await DatabaseScope.serviceRole(on: connection).query(
                """
                SELECT u.id, coalesce(p.username, u.email, u.id::text), p.full_name
                  FROM auth.users AS u LEFT JOIN profiles AS p ON p.user_id = u.id
                 WHERE u.id = \(userId)
                """)
            guard let row = profile.first else {
                throw CLIFailure.badInput("no user \(userId.uuidString.lowercased()) in auth.users")
            }
            let user = CLIUser(id: userId, username: try row.decode(String.self, at: 1), fullName: try row.decode(String?.self, at: 2))
            do {
                return try await body(DatabaseScope.user(userId, on: connection), user)
            } catch let error as DataAccessError {
                switch error {
                case .notParentOfFamily, .notAParent, .notFound:
                    throw CLIFailure.badInput(error.description)
                case .userScopeRequired, .unexpectedValue:
                    throw CLIFailure.runtime(error.description)
                }
            }
        }
    }
}

extension UUID {
    /// The lower-case form the CLI prints.
    var cliText: String { uuidString.lowercased() }
}

/// Short dates for tables.
enum CLIDate {
    static func text(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon))
    }

    static func day(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash))
    }
}

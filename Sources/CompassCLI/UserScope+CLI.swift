import ArgumentParser
import CompassData
import Foundation
import Postgres

extension DatabaseOptions {
    /// Connects, checks that `userId` exists (as the service role), and runs `body` in that user's RLS scope.
    ///
    /// An unknown user is bad input (exit 2); repository refusals that name a value
    /// (not a parent of that family, no such notification) are bad input too.
    func withUserScope<T>(_ userId: UUID, _ body: (DatabaseScope, UserSummary) async throws -> T) async throws -> T {
        try await withConnection { connection in
            guard let user = try await UsersRepository(scope: .serviceRole(on: connection)).user(userId) else {
                throw CLIFailure.badInput("no user \(userId.uuidString.lowercased()) in auth.users")
            }
            do {
                return try await body(DatabaseScope.user(userId, on: connection), user)
            } catch let error as DataAccessError {
                switch error {
                case .notParentOfFamily, .notAParent, .notFound, .unknownSchool, .notAllowed:
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

import Foundation
import Postgres

/// Who an id names in `auth.users`, for admin tools that take a user id on trust (the CLI's `--user`).
///
/// ```swift
/// let sofia = try await UsersRepository(scope: .serviceRole(on: connection)).user(sofiaId)
/// ```
/// Runs as the service role: checking that an id exists is not something a user scope can do.
public struct UsersRepository: Sendable {
    /// The scope the statement runs in (the service role).
    public let scope: DatabaseScope

    /// A repository reading as `scope` (use the service role).
    public init(scope: DatabaseScope) {
        self.scope = scope
    }

    /// The user with their profile's names; username falls back to the e-mail, then the id.
    static func userQuery(id: UUID) -> PostgresQuery {
        """
        SELECT u.id, coalesce(p.username, u.email, u.id::text), p.full_name
          FROM auth.users AS u LEFT JOIN profiles AS p ON p.user_id = u.id
         WHERE u.id = \(id)
        """
    }

    /// The user, or nil when no such id is in `auth.users`.
    public func user(_ id: UUID) async throws -> UserSummary? {
        guard let row = try await scope.query(Self.userQuery(id: id)).first else { return nil }
        return UserSummary(id: id, username: try row.decode(String.self, at: 1), fullName: try row.decode(String?.self, at: 2))
    }
}

/// A user as tools name them in tables.
public struct UserSummary: Sendable, Hashable {
    /// `auth.users.id`.
    public var id: UUID
    /// The profile's username (or e-mail, or id).
    public var username: String
    /// The profile's full name, if any.
    public var fullName: String?

    /// Creates a summary.
    public init(id: UUID, username: String, fullName: String?) {
        self.id = id
        self.username = username
        self.fullName = fullName
    }

    /// The full name when there is one, else the username.
    public var displayName: String { fullName.flatMap { $0.isEmpty ? nil : $0 } ?? username }
}

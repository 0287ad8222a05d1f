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

    /// `SELECT user_id, role FROM profiles WHERE user_id = ANY($1) AND role IS NOT NULL`
    static func appRolesQuery(ids: [UUID]) -> PostgresQuery {
        "SELECT user_id, role FROM profiles WHERE user_id = ANY(\(ids)) AND role IS NOT NULL"
    }

    /// The app role (`athlete`/`parent`) in each user's profile; users without one are left out.
    public func appRoles(_ ids: [UUID]) async throws -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        var roles: [UUID: String] = [:]
        for row in try await scope.query(Self.appRolesQuery(ids: ids)) {
            let (id, role) = try row.decode((UUID, String).self)
            roles[id] = role
        }
        return roles
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

import CompassDomain
import Foundation

/// Who a scope's statements run as: a signed-in user under RLS, or the service role.
public enum DatabaseIdentity: Sendable, Hashable, CustomStringConvertible {
    /// `role authenticated` with `{"sub": id, "role": "authenticated"}` claims: RLS applies.
    case user(UUID)
    /// `role service_role` (BYPASSRLS) with `{"role": "service_role"}` claims: admin work only.
    case serviceRole

    /// The Postgres role the scope switches to.
    public var roleName: String {
        switch self {
        case .user: return "authenticated"
        case .serviceRole: return "service_role"
        }
    }

    /// The user's id, when this is a user.
    public var userId: UUID? {
        if case .user(let id) = self { return id }
        return nil
    }

    /// The `request.jwt.claims` JSON PostgREST would set for this identity.
    public var claimsJSON: String {
        switch self {
        case .user(let id): return #"{"sub":"\#(id.lowercasedString)","role":"authenticated"}"#
        case .serviceRole: return #"{"role":"service_role"}"#
        }
    }

    public var description: String {
        switch self {
        case .user(let id): return "user \(id.lowercasedString)"
        case .serviceRole: return "service role"
        }
    }
}

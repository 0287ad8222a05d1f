import CompassDomain
import Foundation

/// A request the data layer refuses before or after asking the database; the message names the value.
public enum DataAccessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operation needs a signed-in user but the scope is the service role.
    case userScopeRequired(operation: String)
    /// The user is not a parent of the family they asked to read as a parent.
    case notParentOfFamily(userId: UUID, familyId: UUID)
    /// The user is a parent of no family (needed for the family activity feed).
    case notAParent(userId: UUID)
    /// A row the caller named does not exist or is not visible to them.
    case notFound(entity: String, id: UUID)
    /// The timeline's school filter names a school that is not one of the user's schools.
    case unknownSchool(UUID)
    /// The user can see this row but the policies do not let them change it (e.g. a parent and an athlete's interaction).
    case notAllowed(entity: String, id: UUID)
    /// A column held a value the models do not know (e.g. a new enum case).
    case unexpectedValue(table: String, column: String)

    public var description: String {
        switch self {
        case .userScopeRequired(let operation):
            return "\(operation) runs as a user: use a user scope, not the service role"
        case .notParentOfFamily(let userId, let familyId):
            return "user \(userId.lowercasedString) is not a parent of family \(familyId.lowercasedString)"
        case .notAParent(let userId):
            return "user \(userId.lowercasedString) is not a parent of any family"
        case .notFound(let entity, let id):
            return "no \(entity) \(id.lowercasedString) visible to this user"
        case .unknownSchool(let id):
            return "school \(id.lowercasedString) is not one of this user's schools"
        case .notAllowed(let entity, let id):
            return "this user may not change \(entity) \(id.lowercasedString)"
        case .unexpectedValue(let table, let column):
            return "unexpected value in \(table).\(column)"
        }
    }
}

extension DatabaseScope {
    /// The scope's user, or an error naming the operation that needs one.
    func requireUser(for operation: String) throws -> UUID {
        guard let id = identity.userId else { throw DataAccessError.userScopeRequired(operation: operation) }
        return id
    }
}

import CompassDomain
import CompassHTTP
import Foundation
import Hummingbird

/// `/admin/users/{id}/factors`: the admin side of MFA, as supabase clients' `auth.admin.mfa` calls it.
extension AuthAPI {
    func addAdminFactorRoutes(to group: RouterGroup<CompassRequestContext>) {
        let api = self
        group.get("admin/users/:id/factors") { request, context in
            try await api.listFactors(request, user: context.parameters.get("id"))
        }
        group.delete("admin/users/:id/factors/:factor") { request, context in
            try await api.deleteFactor(request, user: context.parameters.get("id"), factor: context.parameters.get("factor"))
        }
    }

    /// `GET /admin/users/{id}/factors`: the user's factors, verified or not, as `GET /user` lists them.
    func listFactors(_ request: Request, user text: String?) async throws -> Response {
        try await requireAdmin(request)
        let userID = try AuthAPI.userID(text)
        guard let user = try await store.transaction({ tx in try await store.user(id: userID, on: tx) }) else {
            throw AuthError.userNotFound
        }
        return try JSONReply.encoded(user.factors ?? [])
    }

    /// `DELETE /admin/users/{id}/factors/{factor}`: removes one of the user's factors, verified or
    /// not (no assurance level asked of an admin); sessions it raised go back to `aal1`. Answers
    /// the factor as it was.
    func deleteFactor(_ request: Request, user text: String?, factor factorText: String?) async throws -> Response {
        try await requireAdmin(request)
        let userID = try AuthAPI.userID(text)
        let factorID = try AuthAPI.factorID(factorText)
        let removed: JSONValue = try await store.transaction { tx in
            guard let user = try await store.user(id: userID, on: tx) else { throw AuthError.userNotFound }
            guard try await store.lockFactor(id: factorID, userID: userID, on: tx) != nil else { throw AuthError.factorNotFound }
            try await store.deleteFactor(factorID, on: tx)
            let id = JSONValue.string(factorID.uuidString.lowercased())
            return user.factors?.first { if case .object(let fields) = $0 { fields["id"] == id } else { false } } ?? .object(["id": id])
        }
        return try JSONReply.encoded(removed)
    }
}

import CompassData
import CompassDomain
import Foundation
import Hummingbird

extension AppAPI {
    /// `POST /api/interactions/{id}/cascade-delete` with `{"confirmDelete": true}` (seed 004 §4).
    ///
    /// Checks the id and the confirmation before touching the database, then deletes under the
    /// user's RLS: only the athlete who logged the interaction may delete it. Another family's
    /// interaction (invisible under RLS) is 404, exactly like an unknown id, so the endpoint
    /// never confirms that someone else's row exists; a visible row the user may not delete
    /// (a parent and their athlete's interaction) is 403.
    func cascadeDelete(_ call: AppCall) async throws -> Response {
        _ = try AppQuery(call.request, allowed: [])
        let id = try UUID(pathValue: call.parameter("id"), name: "interaction id")
        let body = try await jsonObject(call.request)
        guard case .bool(true)? = body["confirmDelete"] else {
            throw AppAPIError(
                status: .badRequest, code: "confirmation_required",
                message: #"deleting interaction \#(id.lowercasedString) needs {"confirmDelete": true} in the body"#)
        }
        let deleted = try await withScope(of: call.user) { try await InteractionsRepository(scope: $0).cascadeDelete(id) }
        return AppReply.json(CascadeDeleteResponse(deleted: deleted))
    }
}

/// `{"success": true, "deleted": {"interactions": 1}, "message": "Interaction deleted"}`, as seed 004 shows it.
struct CascadeDeleteResponse: Encodable {
    var success = true
    var deleted: InteractionDeletion
    var message = "Interaction deleted"
}

import CompassDomain
import Foundation
import JWTKit

/// The claims of a user's access token, as Supabase's auth server writes them.
struct SessionClaims: JWTPayload, Equatable {
    var iss: String
    var sub: String
    var aud = "authenticated"
    var exp: Int
    var iat: Int
    var email: String
    var phone = ""
    var app_metadata: JSONValue
    var user_metadata: JSONValue
    var role = "authenticated"
    var aal = "aal1"
    var amr: [Method]
    var session_id: String
    var is_anonymous = false

    /// How and when the user authenticated.
    struct Method: Codable, Equatable, Sendable {
        var method: String
        var timestamp: Int
    }

    init(user: AuthUser, sessionID: UUID, assurance: SessionAssurance, issuer: String, now: Date, lifetime: Int) {
        iss = issuer
        sub = user.id
        iat = Int(now.timeIntervalSince1970)
        exp = iat + lifetime
        email = user.email ?? ""
        app_metadata = user.appMetadata
        user_metadata = user.userMetadata
        aal = assurance.level
        amr = assurance.methods
        session_id = sessionID.uuidString.lowercased()
        is_anonymous = user.isAnonymous
    }

    // The verifier in CompassTokens checks signature and expiry.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

import Foundation

/// What a signed token without a `role` claim is.
///
/// PostgREST gives such a token its anonymous role (`db-anon-role`), with `"role": "anon"` added
/// to the claims SQL reads; the other Supabase services refuse it, as the verifier does by default.
public enum MissingRoleRule: Sendable, Hashable {
    /// Refused (``AccessTokenError/ClaimProblem/roleOrExpiryMissing``): auth, realtime, `/api`.
    case refused
    /// `anon`, its other claims kept (REST).
    case anonymous
}

extension AccessClaims {
    /// The claims of a verified token that names no role, as `anon`: `"role":"anon"` goes first
    /// into the signed JSON object `claimsJSON` (which has no `role` key), as PostgREST adds it.
    static func anonymous(claimsJSON: String, subject: String?, expiresAt: Date?, sessionID: UUID?) -> AccessClaims {
        var json = #"{"role":"anon""#
        if let open = claimsJSON.firstIndex(of: "{") {
            let rest = claimsJSON[claimsJSON.index(after: open)...]
            let isEmpty = rest.first(where: { !" \t\r\n".contains($0) }) == "}"
            json += isEmpty ? "}" : "," + rest
        } else {
            json += "}"
        }
        return AccessClaims(role: .anon, subject: subject, expiresAt: expiresAt, claimsJSON: json, sessionID: sessionID)
    }
}

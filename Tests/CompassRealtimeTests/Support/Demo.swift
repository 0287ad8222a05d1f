import CompassRealtime
import CompassTokens
import Foundation

/// The demo fixture's people and families (sql/fixtures/demo.sql).
enum Demo {
    static let maria = "a1000000-0000-4000-8000-000000000001"
    static let sofia = "a1000000-0000-4000-8000-000000000003"
    static let grace = "a1000000-0000-4000-8000-000000000004"
    static let marcus = "a1000000-0000-4000-8000-000000000005"
    static let jordan = "a1000000-0000-4000-8000-000000000007"
    static let riveraFamily = "f1000000-0000-4000-8000-000000000001"
    static let chenFamily = "f1000000-0000-4000-8000-000000000002"

    /// The family of a demo athlete.
    static func family(of athlete: String) -> String {
        athlete == sofia ? riveraFamily : chenFamily
    }

    /// Claims of a signed-in user, valid for an hour.
    static func claims(_ user: String, lifetime: TimeInterval = 3600) -> AccessClaims {
        AccessClaims(
            role: .authenticated, subject: user, expiresAt: Date().addingTimeInterval(lifetime),
            claimsJSON: #"{"sub":"\#(user)","role":"authenticated"}"#)
    }

    /// Claims of the service role.
    static var serviceRole: AccessClaims {
        AccessClaims(
            role: .serviceRole, subject: nil, expiresAt: Date().addingTimeInterval(3600), claimsJSON: #"{"role":"service_role"}"#)
    }
}

import Foundation

@testable import CompassTokens

/// Tokens signed from raw claim text, so tests can write values no encoder would.
enum TokenFixtures {
    static let secret = "test-secret-with-at-least-32-characters!"
    /// A fixed instant, so boundaries are exact (2027-01-15).
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let nowSeconds = 1_800_000_000

    /// A token with the given claims as JSON text; nil leaves a claim out.
    ///
    /// By default `role` is authenticated and `exp` an hour after ``now``.
    static func token(role: String? = #""authenticated""#, exp: String? = "\(nowSeconds + 3600)", _ extra: String...)
        -> String
    {
        let fields = [role.map { #""role":\#($0)"# }, exp.map { #""exp":\#($0)"# }].compactMap { $0 } + extra
        return signed("{" + fields.joined(separator: ",") + "}")
    }

    /// `claimsJSON` signed as written.
    static func signed(_ claimsJSON: String, secret: String = secret) -> String {
        HS256Text.token(claimsJSON: claimsJSON, secret: secret)
    }

    /// A token with any header (`alg` games); its signature is no one's.
    static func unsigned(header: String, claimsJSON: String) -> String {
        HS256Text.base64URL(Data(header.utf8)) + "." + HS256Text.base64URL(Data(claimsJSON.utf8)) + ".c2lnbmF0dXJl"
    }

    static func verifier() async throws -> AccessTokenVerifier {
        try await AccessTokenVerifier(secret: secret)
    }
}

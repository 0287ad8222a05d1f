import Foundation
import Testing

@testable import CompassTokens

/// Tokens signed with the project secret whose time claims are wrong are refused on every
/// surface through the one verifier, and no value of them can crash the worker.
@Suite("Token time claims over HTTP")
struct TokenTimeClaimsTests {
    static func token(_ claims: String) -> String {
        HS256Text.token(claimsJSON: claims, secret: ServerHarness.secret)
    }

    static var hostileTokens: [(String, String)] {
        let now = Int(Date().timeIntervalSince1970)
        let sofia = "a1000000-0000-4000-8000-000000000003"
        func claims(_ extra: String) -> String {
            #"{"sub":"\#(sofia)","role":"authenticated","aud":"authenticated",\#(extra)}"#
        }
        return [
            ("nbf 500 s ahead", token(claims(#""exp":\#(now + 3600),"nbf":\#(now + 500)"#))),
            ("nbf not a number", token(claims(#""exp":\#(now + 3600),"nbf":"soon""#))),
            ("iat an hour ahead", token(claims(#""exp":\#(now + 7200),"iat":\#(now + 3600)"#))),
            ("exp -1e300", token(claims(#""exp":-1e300"#))),
            ("exp not finite", token(claims(#""exp":1e999"#))),
        ]
    }

    @Test func everySurfaceRefusesThemAndTheWorkerStaysUp() async throws {
        try await ServerHarness.with { harness in
            for (name, bad) in Self.hostileTokens {
                let asBearer = ["apikey": harness.keys.anon, "Authorization": "Bearer \(bad)"]
                let rest = try await RawConnection.get("/rest/v1/schools?select=id", port: harness.port, headers: asBearer)
                #expect(rest == 401, "REST bearer, \(name)")
                let key = try await RawConnection.get("/rest/v1/schools?select=id", port: harness.port, headers: ["apikey": bad])
                #expect(key == 401, "apikey, \(name)")
                let api = try await RawConnection.get("/api/v1/feed", port: harness.port, headers: asBearer)
                #expect(api == 401, "/api, \(name)")
                let user = try await RawConnection.get("/auth/v1/user", port: harness.port, headers: asBearer)
                #expect(user == 401 || user == 403, "/auth/v1/user, \(name): \(String(describing: user))")
            }
            #expect(try await RawConnection.get("/health", port: harness.port, headers: [:]) == 200)
        }
    }

    /// GoTrue and PostgREST accept a signed token without `exp`, and so do REST, `/api` and
    /// `/auth/v1` (realtime refuses it: see WebSocketTokenTimeTests).
    @Test func tokensWithoutExpiryAreAcceptedOverHTTP() async throws {
        try await ServerHarness.with { harness in
            let sofia = Self.token(#"{"sub":"a1000000-0000-4000-8000-000000000003","role":"authenticated","aud":"authenticated"}"#)
            let service = Self.token(#"{"role":"service_role"}"#)
            let anon = Self.token(#"{"role":"anon"}"#)
            let asSofia = ["apikey": anon, "Authorization": "Bearer \(sofia)"]
            let admin = ["apikey": anon, "Authorization": "Bearer \(service)"]
            let rest = try await RawConnection.get("/rest/v1/schools?select=id", port: harness.port, headers: asSofia)
            let api = try await RawConnection.get("/api/v1/feed", port: harness.port, headers: asSofia)
            let users = try await RawConnection.get("/auth/v1/admin/users", port: harness.port, headers: admin)
            let asKey = try await RawConnection.get("/rest/v1/schools?select=id", port: harness.port, headers: ["apikey": service])
            #expect(rest == 200)
            #expect(api == 200)
            #expect(users == 200)
            #expect(asKey == 200)
        }
    }
}

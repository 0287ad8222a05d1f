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

    @Test("/auth/v1 names what is wrong with a correctly signed token, not its signature")
    func authNamesTheReason() async throws {
        try await ServerHarness.with { harness in
            let now = Int(Date().timeIntervalSince1970)
            let sofia = #""sub":"a1000000-0000-4000-8000-000000000003","aud":"authenticated""#
            for (claims, reason) in [
                (#"{\#(sofia),"role":"authenticated","exp":\#(now + 3600),"nbf":\#(now + 500)}"#, "token is not valid yet"),
                (#"{\#(sofia),"role":"authenticated","exp":\#(now + 3600),"nbf":"soon"}"#, "claim nbf is not a number"),
                (#"{\#(sofia),"role":"authenticated","exp":\#(now + 7200),"iat":\#(now + 3600)}"#, "token used before issued"),
                (#"{\#(sofia),"role":"postgres","exp":\#(now + 3600)}"#, "role 'postgres' is not one of"),
                (#"{\#(sofia),"role":"authenticated","exp":\#(now - 60)}"#, "token has invalid claims: token is expired"),
            ] {
                let headers = ["apikey": harness.keys.anon, "Authorization": "Bearer \(Self.token(claims))"]
                let reply = try await HTTPReply.exchange("GET", "/auth/v1/user", port: harness.port, headers: headers)
                #expect(reply.status == 403, "\(reason): \(reply.body)")
                // No X-Supabase-Api-Version header: GoTrue's older shape, `error_code` and `msg`.
                #expect(reply.object["error_code"] as? String == "bad_jwt")
                #expect((reply.object["msg"] as? String)?.contains(reason) == true, "\(reason): \(reply.body)")
            }
            let forged = Self.token(#"{\#(sofia),"role":"authenticated"}"#).dropLast(2) + "xx"
            let wrong = try await HTTPReply.exchange(
                "GET", "/auth/v1/user", port: harness.port, headers: ["apikey": harness.keys.anon, "Authorization": "Bearer \(forged)"])
            #expect((wrong.object["msg"] as? String)?.hasSuffix("signature is invalid") == true, "\(wrong.body)")
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

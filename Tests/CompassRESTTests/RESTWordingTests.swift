import Foundation
import Testing

@testable import CompassREST
@testable import CompassTokens

/// PostgREST's words for refused tokens, logic trees and orders, and the `Content-Location`
/// it names a read with.
@Suite("REST wording of refusals and Content-Location", .serialized)
struct RESTWordingTests {
    /// A token of `header` and `claims` JSON, signed with the harness's secret (or `secret`).
    static func token(header: String = #"{"alg":"HS256","typ":"JWT"}"#, claims: String, secret: String = RESTHarness.secret) -> String {
        HS256Text.token(header: header, claimsJSON: claims, secret: secret)
    }

    @Test func refusedTokensInPostgRESTsWords() async throws {
        try await RESTHarness.with { rest in
            let past = Int(Date().timeIntervalSince1970) - 3600
            let cases: [(token: String, code: String, message: String, details: String?)] = [
                (Self.token(claims: #"{"role":"anon"}"#, secret: "another secret entirely, 32 bytes+"), "PGRST301",
                 "No suitable key or wrong key type", "None of the keys was able to decode the JWT"),
                (Self.token(header: #"{"alg":"none","typ":"JWT"}"#, claims: "{}"), "PGRST301",
                 "Wrong or unsupported encoding algorithm", "JWT is unsecured but expected 'alg' was not 'none'"),
                ("quifquirndsjagnrgniur.fonvoienqhhdj.iuqvnvhojah", "PGRST301", "JWT cryptographic operation failed", nil),
                // Expired and without a role: the expiry is what is said.
                (Self.token(claims: #"{"exp":\#(past)}"#), "PGRST303", "JWT expired", nil),
                // A claim of the wrong type is named, as PostgREST names it.
                (Self.token(claims: #"{"role":"authenticated","exp":"invalid"}"#), "PGRST303", "The JWT 'exp' claim must be a number", nil),
                (Self.token(claims: #"{"role":"authenticated","nbf":"invalid"}"#), "PGRST303", "The JWT 'nbf' claim must be a number", nil),
                (Self.token(claims: #"{"role":"authenticated","iat":"invalid"}"#), "PGRST303", "The JWT 'iat' claim must be a number", nil),
                (Self.token(claims: #"{"role":"authenticated","aud":{"invalid":"value"}}"#), "PGRST303",
                 "The JWT 'aud' claim must be a string or an array of strings", nil),
                (Self.token(claims: #"{"role":"authenticated","aud":[{"invalid":"value"},"test"]}"#), "PGRST303",
                 "The JWT 'aud' claim must be a string or an array of strings", nil),
            ]
            for (token, code, message, details) in cases {
                let reply = try await rest.request(.get, "schools", token: token)
                #expect(reply.isError(code, status: 401), "\(message)")
                #expect(reply.object["message"] as? String == message)
                #expect(reply.object["details"] as? String == details)
            }
        }
    }

    /// PostgREST reads a signed token without `role` as its anon role (`role` added to the claims
    /// SQL sees), and refuses `Authorization: Bearer` with no token where no header is anon.
    @Test func aTokenWithoutRoleIsAnonAndAnEmptyBearerIsRefused() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(
                """
                CREATE FUNCTION public.rest_claims() RETURNS json LANGUAGE sql STABLE
                  AS $$ SELECT json_build_object('user', current_user, 'claims', current_setting('request.jwt.claims', true)::json) $$;
                GRANT EXECUTE ON FUNCTION public.rest_claims() TO anon, authenticated, service_role;
                """)
            let roleless = try await rest.request(.get, "rpc/rest_claims", token: Self.token(claims: #"{"sub":"s-9","id":3}"#))
            #expect(roleless.status == 200, "\(roleless)")
            #expect(roleless.object["user"] as? String == "anon")
            let claims = roleless.object["claims"] as? [String: Any] ?? [:]
            #expect(claims["role"] as? String == "anon")
            #expect(claims["id"] as? Int == 3)
            // An unusable role is still refused.
            #expect(try await rest.request(.get, "schools", token: Self.token(claims: #"{"role":null}"#)).isError("PGRST303", status: 401))

            for header in ["Bearer", "Bearer ", "bearer   "] {
                let empty = try await rest.request(.get, "schools", headers: ["Authorization": header])
                #expect(empty.isError("PGRST301", status: 401), "\(header): \(empty)")
                #expect(empty.object["message"] as? String == "Empty JWT is sent in Authorization header")
            }
            // Any whitespace after the scheme, as PostgREST (wai) reads it: a tab or two spaces still carry the token.
            for header in ["Bearer\t\(rest.serviceToken)", "bearer  \(rest.serviceToken) "] {
                let read = try await rest.request(.get, "rpc/rest_claims", headers: ["Authorization": header])
                #expect(read.object["user"] as? String == "service_role", "\(header.prefix(8))")
            }
            #expect(RESTAuthenticator.bearerToken("Bearer\ta.b.c") == "a.b.c")
            #expect(RESTAuthenticator.bearerToken("BEARER   ") == "")
            #expect(RESTAuthenticator.bearerToken("Bearerx a.b.c") == nil)
            #expect(RESTAuthenticator.bearerToken("Basic dXNlcjpwYXNz") == nil)
            #expect(RESTAuthenticator.bearerToken(nil) == nil)
            // Another scheme carries no bearer token: anon, as in PostgREST.
            #expect(try await rest.request(.get, "schools?limit=1", headers: ["Authorization": "Basic dXNlcjpwYXNz"]).status == 200)
        }
    }

    @Test func logicTreesAndOrdersParseAsPostgREST() throws {
        // Text after the closing parenthesis is left, as PostgREST's parser leaves it.
        let trailing = try QueryParameters(query: "and=(id.eq.1,id.neq.2))")
        #expect(trailing.logic.count == 1)
        #expect(throws: RESTError.parse(
            "logic tree", input: "()", column: 4,
            details: "unexpected \")\" expecting field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)")
        ) { try QueryParameters(query: "or=()") }
        #expect(throws: RESTError.parse(
            "order", input: "id.asc.nullslasttt", column: 17, details: "unexpected 't' expecting \",\" or end of input")
        ) { try QueryParameters(query: "order=id.asc.nullslasttt") }
    }

    @Test func readsNameTheirRepresentationInContentLocation() async throws {
        try await RESTHarness.with { rest in
            let reply = try await rest.request(.get, "schools?select=id&name=eq.A b&id=not.is.null", token: rest.serviceToken)
            #expect(reply.status == 200)
            #expect(reply.header("Content-Location") == "/schools?id=not.is.null&name=eq.A%20b&select=id")
            let bare = try await rest.request(.get, "schools", token: rest.serviceToken)
            #expect(bare.header("Content-Location") == "/schools")
        }
    }
}

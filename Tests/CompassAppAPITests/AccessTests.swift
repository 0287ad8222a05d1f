import CompassTokens
import Foundation
import HTTPTypes
import Testing

/// Keys, sessions and RLS: who may call `/api`, and what each user sees.
@Suite("/api access and bad input")
struct AccessTests {
    typealias H = AppAPIHarness

    @Test func withoutTheAPIKeyTheGatewayRefuses() async throws {
        try await H.with { harness in
            let reply = try await harness.send(.get, "/api/v1/feed", as: H.sofia, omitKey: true)
            #expect(reply.status == .unauthorized)
            #expect(reply.object["message"] as? String == "No API key found in request")
            let forged = try await harness.send(.get, "/api/openapi.json", bearer: "x", omitKey: true)
            #expect(forged.status == .unauthorized)
        }
    }

    @Test func anonNoTokenServiceRoleAndExpiredTokensAreRefused() async throws {
        try await H.with { harness in
            let expired = try await harness.issuer.token(
                role: .authenticated, subject: H.sofia.uuidString.lowercased(), lifetime: 60, now: Date().addingTimeInterval(-3600))
            let foreign = try await AccessTokenIssuer(secret: "another-secret-0123456789abcdef0123")
                .token(role: .authenticated, subject: H.sofia.uuidString.lowercased(), lifetime: 3600)
            let cases: [(String?, String)] = [
                (nil, "session_required"),
                (harness.keys.anon, "session_required"),
                (harness.keys.serviceRole, "session_required"),
                (expired, "invalid_token"),
                (foreign, "invalid_token"),
                ("not.a.jwt", "invalid_token"),
            ]
            let sofias = try #require(try await harness.interactionIds(loggedBy: H.sofia).first)
            for (bearer, code) in cases {
                for (method, path, body) in [
                    (HTTPRequestMethod.get, "/api/v1/feed", nil), (.get, "/api/v1/notifications", nil),
                    (.post, "/api/interactions/\(sofias)/cascade-delete", #"{"confirmDelete": true}"#),
                ] {
                    let reply = try await harness.send(method, path, bearer: bearer, json: body)
                    #expect(reply.status == .unauthorized, "\(code) \(path): \(reply.text)")
                    #expect(reply.code == code, "\(path): \(reply.text)")
                    if let bearer { #expect(!reply.text.contains(bearer)) }
                }
            }
            #expect(try await harness.interactionIds(loggedBy: H.sofia).contains(sofias))
            // GoTrue's words, not a library's type name.
            let reply = try await harness.send(.get, "/api/v1/feed", bearer: expired)
            #expect(reply.object["message"] as? String == "invalid JWT: token is expired")
        }
    }

    @Test func marcusSeesNoneOfSofiasRows() async throws {
        try await H.with { harness in
            let sofias = try await harness.interactionIds(loggedBy: H.sofia).map { $0.uuidString.lowercased() }
            #expect(!sofias.isEmpty)
            let sofiaView = try await harness.send(.get, "/api/v1/interactions", as: H.sofia)
            #expect(sofiaView.text.contains(sofias[0]), "the check below must be able to fail")
            for path in ["/api/v1/interactions", "/api/v1/feed?range=all", "/api/v1/timeline?range=all"] {
                let reply = try await harness.send(.get, path, as: H.marcus)
                #expect(reply.status == .ok, "\(path): \(reply.text)")
                for id in sofias { #expect(!reply.text.contains(id), "\(path) shows Sofia's \(id)") }
                #expect(!reply.text.contains(H.sofia.uuidString.lowercased()), "\(path) names Sofia")
            }
            // Notifications may name Sofia as an actor (profiles are public), never show her own notifications.
            let hers = try await harness.adminQuery("SELECT id FROM activities WHERE user_id = \(H.sofia)")
                .map { try $0.decode(UUID.self, at: 0).uuidString.lowercased() }
            #expect(!hers.isEmpty)
            let marcusInbox = try await harness.send(.get, "/api/v1/notifications", as: H.marcus)
            #expect(marcusInbox.status == .ok)
            for id in hers { #expect(!marcusInbox.text.contains(id), "Marcus's notifications show Sofia's \(id)") }
            // Asking for the other family as a parent is refused by the data layer's membership check.
            let grace = try await harness.send(.get, "/api/v1/interactions?parent=true&family=\(H.rivera)", as: H.grace)
            #expect(grace.status == .forbidden)
            #expect(grace.code == "not_parent_of_family")
            let family = try await harness.send(.get, "/api/v1/family-activity?family=\(H.rivera)", as: H.grace)
            #expect(family.status == .forbidden)
        }
    }

    @Test func badParametersAreRefusedNamingTheValue() async throws {
        try await H.with { harness in
            let cases: [(String, String)] = [
                ("/api/v1/feed?type=likes", "'likes'"),
                ("/api/v1/feed?range=decade", "'decade'"),
                ("/api/v1/feed?page=0", "'0'"),
                ("/api/v1/feed?page=two", "'two'"),
                ("/api/v1/feed?widget=maybe", "'maybe'"),
                ("/api/v1/feed?widget=true&page=2", "page 2"),
                ("/api/v1/feed?colour=red", "'colour'"),
                ("/api/v1/feed?page=1&page=2", "'page'"),
                ("/api/v1/timeline?range=5", "'5'"),
                ("/api/v1/timeline?hide=event,party", "'event,party'"),
                ("/api/v1/timeline?school=x", "'x'"),
                ("/api/v1/timeline?school=00000000-0000-4000-8000-0000000000bb", "00000000-0000-4000-8000-0000000000bb"),
                ("/api/v1/interactions?type=fax", "'fax'"),
                ("/api/v1/interactions?days=5", "'5'"),
                ("/api/v1/interactions?sentiment=angry", "'angry'"),
                ("/api/v1/interactions?parent=true", "family"),
                ("/api/v1/interactions?logged-by=\(H.lily)", H.lily.uuidString.lowercased()),
                ("/api/v1/family-activity?limit=101", "'101'"),
                ("/api/v1/family-activity?cursor=AAAA", "'AAAA'"),
                ("/api/v1/notifications/not-a-uuid", "'not-a-uuid'"),
            ]
            for (path, named) in cases {
                let method: HTTPRequestMethod = path.hasPrefix("/api/v1/notifications/") ? .delete : .get
                let reply = try await harness.send(method, path, as: path.contains("family-activity") ? H.maria : H.sofia)
                #expect(reply.status == .badRequest, "\(path): \(reply.text)")
                #expect(reply.code == "invalid_parameter", "\(path): \(reply.text)")
                #expect((reply.object["message"] as? String)?.contains(named) == true, "\(path): \(reply.text)")
            }
            let unread = try await harness.send(.get, "/api/v1/notifications/unread", as: H.sofia).object["unreadCount"] as? Int
            for body in ["{}", #"{"ids": []}"#, #"{"ids": ["nope"]}"#, #"{"ids": [1]}"#, "[1]"] {
                let reply = try await harness.send(.post, "/api/v1/notifications/read", as: H.sofia, json: body)
                #expect(reply.status == .badRequest, "\(body): \(reply.text)")
                #expect(reply.code == "invalid_body")
            }
            #expect(try await harness.send(.get, "/api/v1/notifications/unread", as: H.sofia).object["unreadCount"] as? Int == unread)
        }
    }

    @Test func aNULByteOrNonUTF8EscapeInAnyInputIsRefusedNeverA500() async throws {
        try await H.with { harness in
            for path in [
                "/api/v1/feed?search=a%00b", "/api/v1/interactions?search=a%00b", "/api/v1/interactions?search=%00",
                "/api/v1/timeline?school=a%00b", "/api/v1/family-activity?cursor=a%00b", "/api/v1/feed?type=email%00",
                "/api/v1/feed?search=a%FFb",
            ] {
                let reply = try await harness.send(.get, path, as: path.contains("family-activity") ? H.maria : H.sofia)
                #expect(reply.status == .badRequest, "\(path): \(reply.status) \(reply.text)")
                #expect(reply.code == "invalid_parameter", "\(path)")
            }
            let reply = try await harness.send(.post, "/api/v1/notifications/read", as: H.sofia, json: #"{"ids": ["a\u0000b"]}"#)
            #expect(reply.status == .badRequest, "\(reply.text)")
        }
    }
}

typealias HTTPRequestMethod = HTTPRequest.Method

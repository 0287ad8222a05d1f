import Foundation
import Testing

/// `POST /api/interactions/{id}/cascade-delete` (seed 004 §4) under the caller's RLS.
@Suite("cascade-delete")
struct CascadeDeleteTests {
    typealias H = AppAPIHarness
    static let confirm = #"{"confirmDelete": true}"#

    private func exists(_ id: UUID, in harness: H) async throws -> Bool {
        try await harness.adminQuery("SELECT count(*) FROM interactions WHERE id = \(id)")[0].decode(Int.self, at: 0) == 1
    }

    @Test func theAthleteWhoLoggedItDeletesItWithTheSeedsReply() async throws {
        try await H.with { harness in
            let id = try #require(try await harness.interactionIds(loggedBy: H.sofia).first)
            let reply = try await harness.send(
                .post, "/api/interactions/\(id.uuidString)/cascade-delete", as: H.sofia, json: Self.confirm)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.contentType?.hasPrefix("application/json") == true)
            #expect(reply.object["success"] as? Bool == true)
            #expect(reply.object["deleted"] as? [String: Int] == ["interactions": 1])
            #expect(reply.object["message"] as? String == "Interaction deleted")
            #expect(Set(reply.object.keys) == ["success", "deleted", "message"])
            #expect(try await !exists(id, in: harness))
            // Gone means gone: a second delete is 404.
            let again = try await harness.send(
                .post, "/api/interactions/\(id.uuidString.lowercased())/cascade-delete", as: H.sofia, json: Self.confirm)
            #expect(again.status == .notFound)
        }
    }

    @Test func anotherFamilysInteractionIsNotFoundAndStays() async throws {
        try await H.with { harness in
            let sofias = try #require(try await harness.interactionIds(loggedBy: H.sofia).first)
            for user in [H.marcus, H.grace] {
                let reply = try await harness.send(
                    .post, "/api/interactions/\(sofias)/cascade-delete", as: user, json: Self.confirm)
                #expect(reply.status == .notFound, "\(user): \(reply.text)")
                #expect(reply.code == "not_found")
                #expect(reply.text.contains(sofias.uuidString.lowercased()))
            }
            #expect(try await exists(sofias, in: harness))
        }
    }

    @Test func aParentSeesButMayNotDeleteTheirAthletesInteraction() async throws {
        try await H.with { harness in
            let sofias = try #require(try await harness.interactionIds(loggedBy: H.sofia).first)
            let reply = try await harness.send(.post, "/api/interactions/\(sofias)/cascade-delete", as: H.maria, json: Self.confirm)
            #expect(reply.status == .forbidden, "\(reply.text)")
            #expect(reply.code == "not_allowed")
            #expect(try await exists(sofias, in: harness))
        }
    }

    @Test func withoutConfirmDeleteTrueNothingIsDeleted() async throws {
        try await H.with { harness in
            let id = try #require(try await harness.interactionIds(loggedBy: H.sofia).first)
            for body in [nil, "{}", #"{"confirmDelete": false}"#, #"{"confirmDelete": "true"}"#, #"{"confirmDelete": 1}"#] {
                let reply = try await harness.send(.post, "/api/interactions/\(id)/cascade-delete", as: H.sofia, json: body)
                #expect(reply.status == .badRequest, "\(body ?? "no body"): \(reply.text)")
                #expect(reply.code == "confirmation_required")
                #expect((reply.object["message"] as? String)?.contains("confirmDelete") == true)
            }
            let malformed = try await harness.send(.post, "/api/interactions/\(id)/cascade-delete", as: H.sofia, json: "{confirm")
            #expect(malformed.status == .badRequest)
            #expect(malformed.code == "invalid_body")
            let deep = #"{"confirmDelete":true,"x":"# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}"
            let tooDeep = try await harness.send(.post, "/api/interactions/\(id)/cascade-delete", as: H.sofia, json: deep)
            #expect(tooDeep.status == .badRequest)
            #expect(tooDeep.code == "invalid_body")
            #expect((tooDeep.object["message"] as? String)?.contains("64 levels") == true)
            #expect(try await exists(id, in: harness))
        }
    }

    @Test func anUnknownIdIsNotFound() async throws {
        try await H.with { harness in
            let unknown = "00000000-0000-4000-8000-0000000000aa"
            let reply = try await harness.send(.post, "/api/interactions/\(unknown)/cascade-delete", as: H.sofia, json: Self.confirm)
            #expect(reply.status == .notFound)
            #expect(reply.code == "not_found")
            #expect(reply.text.contains(unknown))
        }
    }

    @Test func aMalformedIdIsBadInputNamingIt() async throws {
        try await H.with { harness in
            let before = try await harness.interactionIds(loggedBy: H.sofia)
            let reply = try await harness.send(.post, "/api/interactions/not-a-uuid/cascade-delete", as: H.sofia, json: Self.confirm)
            #expect(reply.status == .badRequest)
            #expect(reply.code == "invalid_parameter")
            #expect(reply.text.contains("'not-a-uuid'"))
            #expect(try await harness.interactionIds(loggedBy: H.sofia) == before)
        }
    }
}

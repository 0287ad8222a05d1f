import CompassAppAPI
import Foundation
import HTTPTypes
import Testing

/// `/api/openapi.json` describes every route the router serves, and every live reply conforms to it.
@Suite("OpenAPI document against the live /api")
struct OpenAPITests {
    typealias H = AppAPIHarness

    /// One live call per documented status: operation, request, expected status.
    struct Probe {
        var method: HTTPRequest.Method
        var path: String
        var template: String
        var user: UUID?
        var body: String?
        var status: HTTPResponse.Status
    }

    static func probes(_ harness: H) async throws -> [Probe] {
        let sofias = try await harness.interactionIds(loggedBy: H.sofia)
        let deletable = try #require(sofias.first)
        let notifications = try await harness.adminQuery("SELECT id FROM activities WHERE user_id = \(H.sofia) LIMIT 1")
        let notification = try #require(notifications.first).decode(UUID.self, at: 0)
        let cascade = "/api/interactions/{id}/cascade-delete"
        let confirm = #"{"confirmDelete": true}"#
        func probe(_ method: HTTPRequest.Method, _ template: String, _ path: String? = nil, as user: UUID? = H.sofia,
                   body: String? = nil, _ status: HTTPResponse.Status = .ok) -> Probe {
            Probe(method: method, path: path ?? template, template: template, user: user, body: body, status: status)
        }
        return [
            probe(.get, "/api/openapi.json", as: nil),
            probe(.get, "/api/openapi.json", as: nil, .unauthorized),  // sent without the apikey below
            probe(.get, "/api/v1/feed", "/api/v1/feed?range=all"),
            probe(.get, "/api/v1/feed", "/api/v1/feed?type=nope", .badRequest),
            probe(.get, "/api/v1/feed", as: nil, .unauthorized),
            probe(.get, "/api/v1/timeline", "/api/v1/timeline?range=all"),
            probe(.get, "/api/v1/timeline", "/api/v1/timeline?range=2", .badRequest),
            probe(.get, "/api/v1/timeline", as: nil, .unauthorized),
            probe(.get, "/api/v1/interactions"),
            probe(.get, "/api/v1/interactions", "/api/v1/interactions?parent=true&family=\(H.chen)", as: H.grace),
            probe(.get, "/api/v1/interactions", "/api/v1/interactions?days=3", .badRequest),
            probe(.get, "/api/v1/interactions", "/api/v1/interactions?parent=true&family=\(H.rivera)", as: H.grace, .forbidden),
            probe(.get, "/api/v1/interactions", as: nil, .unauthorized),
            probe(.get, "/api/v1/family-activity", "/api/v1/family-activity?limit=2", as: H.maria),
            probe(.get, "/api/v1/family-activity", "/api/v1/family-activity?limit=0", as: H.maria, .badRequest),
            probe(.get, "/api/v1/family-activity", as: H.sofia, .forbidden),
            probe(.get, "/api/v1/family-activity", as: nil, .unauthorized),
            probe(.get, "/api/v1/notifications"),
            probe(.get, "/api/v1/notifications", as: nil, .unauthorized),
            probe(.get, "/api/v1/notifications/unread"),
            probe(.get, "/api/v1/notifications/unread", as: nil, .unauthorized),
            probe(.post, "/api/v1/notifications/read", body: #"{"ids": ["\#(notification)"]}"#),
            probe(.post, "/api/v1/notifications/read", body: #"{"ids": []}"#, .badRequest),
            probe(.post, "/api/v1/notifications/read", as: nil, .unauthorized),
            probe(.post, "/api/v1/notifications/read-all"),
            probe(.post, "/api/v1/notifications/read-all", as: nil, .unauthorized),
            probe(.delete, "/api/v1/notifications/{id}", "/api/v1/notifications/\(notification)"),
            probe(.delete, "/api/v1/notifications/{id}", "/api/v1/notifications/\(notification)", .notFound),
            probe(.delete, "/api/v1/notifications/{id}", "/api/v1/notifications/x", .badRequest),
            probe(.delete, "/api/v1/notifications/{id}", "/api/v1/notifications/\(notification)", as: nil, .unauthorized),
            probe(.delete, "/api/v1/notifications"),
            probe(.delete, "/api/v1/notifications", as: nil, .unauthorized),
            probe(.post, cascade, "/api/interactions/\(deletable)/cascade-delete", as: H.maria, body: confirm, .forbidden),
            probe(.post, cascade, "/api/interactions/\(deletable)/cascade-delete", body: confirm),
            probe(.post, cascade, "/api/interactions/\(deletable)/cascade-delete", body: confirm, .notFound),
            probe(.post, cascade, "/api/interactions/\(deletable)/cascade-delete", body: "{}", .badRequest),
            probe(.post, cascade, "/api/interactions/\(deletable)/cascade-delete", as: nil, body: confirm, .unauthorized),
        ]
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedReplyMatchesTheLiveOne() async throws {
        try await H.with { harness in
            let reply = try await harness.send(.get, "/api/openapi.json")
            #expect(reply.status == .ok)
            let document = try #require(reply.object as [String: Any]?)
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(path)" } })
            let served = Set(harness.api.routes.map { "\($0.method.rawValue) \($0.openAPIPath)" })
            #expect(served == documented, "undocumented: \(served.subtracting(documented)); not served: \(documented.subtracting(served))")

            let check = JSONSchemaCheck(document: document)
            var exercised = Set<String>()
            for probe in try await Self.probes(harness) {
                let operationKey = "\(probe.method.rawValue) \(probe.template)"
                let operation = try #require(paths[probe.template]?[probe.method.rawValue.lowercased()] as? [String: Any], "\(operationKey)")
                let omitKey = probe.template == "/api/openapi.json" && probe.status == .unauthorized
                let live = try await harness.send(probe.method, probe.path, as: probe.user, omitKey: omitKey, json: probe.body)
                #expect(live.status == probe.status, "\(probe.method) \(probe.path): \(live.text)")
                let responses = try #require(operation["responses"] as? [String: [String: Any]])
                guard var response = responses[String(live.status.code)] else {
                    Issue.record("\(operationKey) answered \(live.status.code), which is not documented")
                    continue
                }
                if let ref = response["$ref"] as? String { response = try #require(check.resolve(ref)) }
                let content = try #require(response["content"] as? [String: [String: Any]])
                let schema = try #require(content["application/json"]?["schema"] as? [String: Any])
                #expect(live.contentType?.hasPrefix("application/json") == true, "\(operationKey)")
                let json = try #require(live.json, "\(operationKey): not JSON: \(live.text)")
                let problems = check.problems(json, against: schema)
                #expect(problems.isEmpty, "\(probe.method) \(probe.path) \(live.status.code): \(problems.prefix(5))")
                exercised.insert(operationKey)
            }
            #expect(exercised == documented, "documented but never called: \(documented.subtracting(exercised))")
        }
    }

    /// What a generator (schemathesis) needs so that every value the document allows is accepted:
    /// lengths and patterns, and the interactions view's parameters that only go together.
    @Test func parameterLengthsPatternsAndDependenciesMatchWhatTheServerAccepts() async throws {
        try await H.with { harness in
            let document = try #require(try await harness.send(.get, "/api/openapi.json").object as [String: Any]?)
            let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
            func parameter(_ path: String, _ name: String) throws -> [String: Any] {
                let parameters = try #require(paths[path]?["get"]?["parameters"] as? [[String: Any]])
                return try #require(parameters.first { $0["name"] as? String == name })
            }
            func pattern(_ path: String, _ name: String) throws -> String {
                try #require((try parameter(path, name)["schema"] as? [String: Any])?["pattern"] as? String)
            }
            let page = try await harness.send(.get, "/api/v1/family-activity?limit=1", as: H.maria)
            let cursor = try #require(page.object["nextCursor"] as? String)
            #expect(cursor.range(of: try pattern("/api/v1/family-activity", "cursor"), options: .regularExpression) != nil)
            let hide = try pattern("/api/v1/timeline", "hide")
            #expect("event,status_change".range(of: hide, options: .regularExpression) != nil)
            #expect("".range(of: hide, options: .regularExpression) == nil)
            #expect(try await harness.send(.get, "/api/v1/timeline?hide=event,status_change", as: H.sofia).status == .ok)

            let view = try parameter("/api/v1/interactions", "query")
            #expect(view["style"] as? String == "form" && view["explode"] as? Bool == true)
            let variants = try #require((view["schema"] as? [String: Any])?["oneOf"] as? [[String: Any]])
            #expect(variants.compactMap { $0["title"] as? String } == ["athlete", "parent"])
            #expect(try await harness.send(.get, "/api/v1/interactions?parent=false", as: H.sofia).status == .ok)
            #expect(try await harness.send(.get, "/api/v1/interactions?family=\(H.chen)", as: H.grace).status == .badRequest)
            #expect(try await harness.send(.get, "/api/v1/interactions?parent=true&family=\(H.chen)", as: H.grace).status == .ok)
        }
    }

    @Test func theCheckerCatchesAWrongReply() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(fetchless.utf8)) as? [String: Any])
        let check = JSONSchemaCheck(document: document)
        let schema: [String: Any] = ["$ref": "#/components/schemas/NotificationChange"]
        func problems(_ json: String) throws -> [String] {
            check.problems(try JSONSerialization.jsonObject(with: Data(json.utf8)), against: schema)
        }
        #expect(try problems(#"{"changed": 1, "unreadCount": 0}"#).isEmpty)
        #expect(try !problems(#"{"changed": 1}"#).isEmpty)
        #expect(try !problems(#"{"changed": "1", "unreadCount": 0}"#).isEmpty)
        #expect(try !problems(#"{"changed": true, "unreadCount": 0}"#).isEmpty)
        #expect(try !problems(#"{"changed": 1.5, "unreadCount": 0}"#).isEmpty)
    }

    private var fetchless: String {
        #"{"components": {"schemas": {"NotificationChange": {"type": "object", "required": ["changed", "unreadCount"], "properties": {"changed": {"type": "integer"}, "unreadCount": {"type": "integer"}}}}}}"#
    }
}

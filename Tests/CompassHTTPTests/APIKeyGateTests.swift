@testable import CompassHTTP
import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// What the probe group's error middleware answers for errors that are not replies yet.
private struct Unexpected: HTTPResponseError {
    var status: HTTPResponse.Status { .internalServerError }
    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONReply.object(status: status, ["message": "translated"])
    }
}

@Suite("API keys and the gateway check (no database)")
struct APIKeyGateTests {
    static let secret = "gateway-tests-secret-0123456789abcdef"

    @Test func keysAreDeterministicPerSecretAndCarryTheirRole() async throws {
        let keys = try APIKeys(secret: Self.secret)
        let again = try APIKeys(secret: Self.secret)
        #expect(keys.anon == again.anon)
        #expect(keys.serviceRole == again.serviceRole)
        let other = try APIKeys(secret: "another-secret-that-is-long-enough-0123")
        #expect(other.anon != keys.anon)
        // The exact bytes: the same in every process (compass keys, make run, the worker).
        #expect(keys.anon.hasPrefix("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJleHAiOjIwNTEyMjI0MDAsImlhdCI6MTczNTY4OTYwMCwiaXNzIjoiY29tcGFzcyIsInJvbGUiOiJhbm9uIn0."))
        let verifier = try await AccessTokenVerifier(secret: Self.secret)
        #expect(try await verifier.verify(keys.anon).role == .anon)
        #expect(try await verifier.verify(keys.serviceRole).role == .serviceRole)
    }

    @Test func requestsWithoutAValidKeyGetTheGatewayReply() async throws {
        let keys = try APIKeys(secret: Self.secret)
        let foreign = try APIKeys(secret: "another-secret-that-is-long-enough-0123")
        let app = try await Self.application()
        try await app.test(.router) { client in
            try await client.execute(uri: "/probe", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains("No API key found in request"))
            }
            try await client.execute(uri: "/probe", method: .get, headers: [HTTPField.Name("apikey")!: foreign.anon]) {
                response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains("Invalid API key"))
                #expect(!String(buffer: response.body).contains(foreign.anon))
            }
            try await client.execute(uri: "/probe", method: .get, headers: [HTTPField.Name("apikey")!: keys.anon]) {
                response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "anon")
            }
            try await client.execute(uri: "/probe?apikey=\(keys.serviceRole)", method: .get) { response in
                #expect(String(buffer: response.body) == "service_role")
            }
        }
    }

    @Test func errorsThatAreNotRepliesYetAreTranslatedByTheGroupsMiddleware() async throws {
        let keys = try APIKeys(secret: Self.secret)
        let app = try await Self.application()
        try await app.test(.router) { client in
            try await client.execute(uri: "/probe/boom", method: .get, headers: [HTTPField.Name("apikey")!: keys.anon]) {
                response in
                #expect(response.status == .internalServerError)
                #expect(String(buffer: response.body) == #"{"message":"translated"}"#)
            }
            // The gateway's refusal is already a reply: it passes through untranslated.
            try await client.execute(uri: "/probe/boom", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains("No API key found in request"))
            }
        }
    }

    @Test func bearerTokensAreReadCaseInsensitively() async throws {
        let app = try await Self.application()
        try await app.test(.router) { client in
            try await client.execute(uri: "/bearer", method: .get, headers: [.authorization: "bearer abc.def.ghi"]) { response in
                #expect(String(buffer: response.body) == "abc.def.ghi")
            }
            try await client.execute(uri: "/bearer", method: .get, headers: [.authorization: "Basic abc"]) { response in
                #expect(String(buffer: response.body) == "none")
            }
            // Beyond the plain `Bearer <token>` (read byte by byte), the general reading still answers.
            let cases = [("BEARER abc", "abc"), ("Bearer abc def", "abc def"), ("Bearerx abc", "none"), ("Bearer\tabc", "none")]
            for (header, token) in cases {
                try await client.execute(uri: "/bearer", method: .get, headers: [.authorization: header]) { response in
                    #expect(String(buffer: response.body) == token, "\(header)")
                }
            }
            // A repeated header is read joined, as one value: never as its first or last copy alone.
            var twice = HTTPFields()
            twice.append(HTTPField(name: .authorization, value: "Bearer a"))
            twice.append(HTTPField(name: .authorization, value: "Bearer b"))
            try await client.execute(uri: "/bearer", method: .get, headers: twice) { response in
                #expect(String(buffer: response.body) == "a, Bearer b")
            }
        }
    }

    @Test func bodiesPastTheLimitAreRefusedBeforeTheyAreRead() async throws {
        let app = try await Self.application()
        try await app.test(.router) { client in
            try await client.execute(uri: "/body", method: .post, body: ByteBuffer(string: "0123456789")) { response in
                #expect(String(buffer: response.body) == "10")
            }
            try await client.execute(uri: "/body", method: .post, body: ByteBuffer(string: String(repeating: "x", count: 17))) {
                response in
                #expect(response.status == .contentTooLarge)
            }
            // Under the body's limit but past what the server's budget has left (12 bytes).
            try await client.execute(uri: "/body", method: .post, body: ByteBuffer(string: String(repeating: "x", count: 14))) {
                response in
                #expect(response.status == .serviceUnavailable)
            }
            // Each body gives its bytes back once read: the budget is whole again.
            for _ in 0..<3 {
                try await client.execute(uri: "/body", method: .post, body: ByteBuffer(string: "0123456789")) { response in
                    #expect(String(buffer: response.body) == "10")
                }
            }
        }
    }

    @Test func theBodyBudgetTakesWhatFitsAndGetsItBack() {
        let budget = ByteBudget(limit: 100)
        #expect(budget.reserve(60))
        #expect(!budget.reserve(41))
        #expect(budget.reserve(40))
        #expect(budget.heldBytes == 100)
        budget.release(60)
        #expect(budget.reserve(41))
        #expect(budget.heldBytes == 81)
    }

    static func application() async throws -> some ApplicationProtocol {
        let router = Router(context: CompassRequestContext.self)
        router.group("/probe")
            .add(middleware: ErrorReplyMiddleware { _, _, _ in Unexpected() })
            .add(middleware: APIKeyMiddleware(verifier: try await AccessTokenVerifier(secret: secret)))
            .get { _, context -> Response in
                JSONReply.text(try context.requireAPIKey().claims.role.rawValue)
            }
            .get("boom") { _, _ -> Response in throw CancellationError() }
        router.get("/bearer") { request, _ in request.bearerToken ?? "none" }
        let budget = ByteBudget(limit: 12)
        router.post("/body") { request, _ -> Response in
            do {
                return JSONReply.text("\(try await request.collectBody(upTo: 16, budget: budget).readableBytes)")
            } catch is BodyTooLarge {
                return JSONReply.object(status: .contentTooLarge, ["message": "too large"])
            } catch is BodyBudgetExhausted {
                return JSONReply.object(status: .serviceUnavailable, ["message": "busy"])
            }
        }
        return Application(router: router)
    }
}

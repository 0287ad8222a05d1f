@testable import CompassAuth
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Postgres
import CompassTestSupport
import Testing

@Suite("/auth/v1 refuses NUL characters with 400, naming the field", .serialized)
struct NULCharacterTests {
    @Test("a NUL in any body field gets 400 validation_failed naming the field, not its value, and writes nothing")
    func nulInBodyFields() async throws {
        try await AuthHarness.with { auth in
            let user = try #require(try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword)["access_token"])
            let admin = auth.keys.serviceRole
            // JSON's \u0000 escape: the decoded strings hold U+0000.
            let cases: [(HTTPRequest.Method, String, String?, String, String)] = [
                (.post, "/signup", nil, #"{"email":"nul\u0000@example.com","password":"secret-123"}"#, "email"),
                (.post, "/signup", nil, #"{"email":"nul@example.com","password":"secret\u0000-123"}"#, "password"),
                (.post, "/signup", nil, #"{"email":"nul@example.com","password":"secret-123","data":{"a":["\u0000"]}}"#, "data"),
                (.post, "/token?grant_type=password", nil, #"{"email":"sofia.rivera@example.com\u0000","password":"x"}"#, "email"),
                (.post, "/token?grant_type=password", nil, #"{"email":"sofia.rivera@example.com","password":"a\u0000b"}"#, "password"),
                (.post, "/token?grant_type=refresh_token", nil, #"{"refresh_token":"abc\u0000"}"#, "refresh_token"),
                (.put, "/user", user, #"{"data":{"k\u0000":1}}"#, "data"),
                (.post, "/admin/users", admin, #"{"email":"nul@example.com","app_metadata":{"t":"\u0000"}}"#, "app_metadata"),
                (.put, "/admin/users/\(DemoFixture.sofia)", admin, #"{"user_metadata":{"t":"x\u0000y"}}"#, "user_metadata"),
            ]
            for (method, path, bearer, body, field) in cases {
                let reply = try await auth.send(method, path, bearer: bearer, json: body)
                #expect(reply.status == .badRequest, "\(path) \(field): \(reply.text)")
                #expect(reply.code == "validation_failed")
                #expect(reply["message"] == "\(field) must not contain a NUL character")
                #expect(!reply.text.contains("secret") && !reply.text.contains("abc"))
            }
            let written = try await auth.query("SELECT count(*)::int FROM auth.users WHERE email LIKE 'nul%'")
            #expect(try written[0].decode(Int.self, at: 0) == 0)
        }
    }

    @Test("a 22021 that reaches AuthError.translating (text no field check caught) is a 400, not a 500")
    func characterNotInRepertoireIsABadRequest() {
        let error = PostgresError(
            code: .server, message: "invalid byte sequence for encoding \"UTF8\": 0x00", sqlState: .characterNotInRepertoire,
            query: "SELECT $1", file: #fileID, line: #line)
        let request = Request(
            head: HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/auth/v1/signup"),
            body: RequestBody(buffer: ByteBuffer()))
        let reply = AuthError.translating(error, request: request, logger: Logger(label: "test"))
        #expect((reply as? AuthError) == AuthError.unstorableText)
        #expect(reply.status == .badRequest)
    }
}

import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Postgres
import Testing

@testable import CompassAppAPI

/// What `/api` answers for errors its routes did not make themselves.
@Suite("/api error translation")
struct ErrorTranslationTests {
    @Test("a body the decoder refused (the client hung up mid-body) is the client's 400, not a logged 500")
    func malformedBodiesAreTheClients() throws {
        let request = Request(
            head: HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/api/v1/notifications/read"),
            body: RequestBody(buffer: ByteBuffer()))
        for error: any Error in [HTTPParserError.invalidEOFState, HTTPParserError.invalidChunkSize] {
            let reply = AppAPIError.translating(error, request: request, logger: Logger(label: "test"))
            #expect(reply.status == .badRequest, "\(error)")
            #expect((reply as? AppAPIError)?.code == "invalid_body")
        }
        struct Unexpected: Error {}
        #expect(AppAPIError.translating(Unexpected(), request: request, logger: Logger(label: "test")).status == .internalServerError)
    }

    @Test("a database that went away under the request (a restart, a killed backend) is 503, not a 500")
    func anUnreachableDatabaseIsServiceUnavailable() throws {
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/api/v1/feed"),
            body: RequestBody(buffer: ByteBuffer()))
        let gone: [any Error] = [
            PostgresError(code: .connectionLost, message: "server closed the connection unexpectedly"),
            PostgresError(code: .connectionFailed, message: "connection refused"),
            PostgresError(code: .server, message: "terminating connection due to administrator command", sqlState: SQLState(rawValue: "57P01")),
        ]
        for error in gone {
            let reply = AppAPIError.translating(error, request: request, logger: Logger(label: "test"))
            #expect(reply.status == .serviceUnavailable, "\(error)")
            #expect((reply as? AppAPIError)?.code == "database_unavailable")
        }
        let query = PostgresError(code: .server, message: "division by zero", sqlState: SQLState(rawValue: "22012"))
        #expect(AppAPIError.translating(query, request: request, logger: Logger(label: "test")).status == .internalServerError)
    }
}

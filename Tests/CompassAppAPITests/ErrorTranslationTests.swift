import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
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
}

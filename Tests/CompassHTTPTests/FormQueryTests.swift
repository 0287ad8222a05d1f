import HTTPTypes
import Hummingbird
import Testing

@testable import CompassHTTP

/// Query parameters read as Go's `URL.Query` (GoTrue) reads them.
@Suite("Form-decoded query parameters")
struct FormQueryTests {
    static func request(_ target: String) -> Request {
        Request(head: HTTPRequest(method: .get, scheme: nil, authority: "x", path: target), body: RequestBody(buffer: .init()))
    }

    @Test func plusIsASpaceAndEscapesAreDecoded() {
        let request = Self.request("/admin/users?sort=created_at+asc&filter=a%2Bb+c&sort=created_at%20desc&empty=&bare&bad=%zz")
        #expect(request.formQueryValues("sort") == ["created_at asc", "created_at desc"])
        #expect(request.formQueryValue("filter") == "a+b c")
        #expect(request.formQueryValue("empty") == "")
        #expect(request.formQueryValue("bare") == "")
        #expect(request.formQueryValue("bad") == "%zz", "an invalid escape is kept as written")
        #expect(request.formQueryValue("missing") == nil)
        #expect(Self.request("/health").formQueryValues("x").isEmpty)
    }
}

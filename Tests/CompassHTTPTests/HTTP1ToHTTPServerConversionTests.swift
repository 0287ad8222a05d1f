import HTTPTypes
import NIOHTTP1
import NIOHTTPTypesHTTP1
import Testing

@testable import CompassHTTP

@Suite("HTTP/1 request heads become the same requests as swift-nio-extras' codec makes them")
struct HTTP1ToHTTPServerConversionTests {
    static let targets = [
        "/", "/rest/v1/schools?select=id,name&id=eq.1", "/api/v1/feed", "/a b", "/%7Euser?q=%20&x", "//host/path",
        "/path#fragment", "/?", "/é/漢字?name=é", "/rest/v1/t?a=1&a=2&b=", "/\u{7F}", "/..%2F..",
        // Not origin form: the codec's own conversion.
        "*", "http://example.com/rest/v1/t?x=1", "https://example.com", "http://example.com?x", "weird", "",
    ]

    @Test(arguments: targets)
    func eachTargetGivesTheCodecsRequest(_ target: String) throws {
        var headers = HTTPHeaders([("Host", "localhost:4000"), ("apikey", "key"), ("Cookie", "a=1; b=2"), ("X-Twice", "1")])
        headers.add(name: "X-Twice", value: "2")
        for method in [HTTPMethod.GET, .POST, .OPTIONS, .RAW(value: "PURGE")] {
            let head = HTTPRequestHead(version: .http1_1, method: method, uri: target, headers: headers)
            let expected = try HTTPRequest(head, secure: false, splitCookie: false)
            let converted = try HTTP1ToHTTPServerConversion.request(from: head)
            #expect(converted == expected)
            #expect(converted.path == expected.path && converted.authority == expected.authority)
        }
    }

    @Test func aHeadWithoutHostHasNoAuthorityEitherWay() throws {
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/health")
        #expect(try HTTP1ToHTTPServerConversion.request(from: head) == (try HTTPRequest(head, secure: false, splitCookie: false)))
    }
}

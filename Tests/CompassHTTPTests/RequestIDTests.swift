@testable import CompassHTTP
import Testing

@Suite("Request ids")
struct RequestIDTests {
    @Test func aSaneIncomingIdIsKeptAndAnythingElseReplaced() {
        #expect(RequestID(incoming: "req-42.a:b_c").text == "req-42.a:b_c")
        for insane in [nil, "", "bad id\n", String(repeating: "a", count: 129), "é"] {
            let id = RequestID(incoming: insane).text
            #expect(id.utf8.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }, "\(id)")
        }
    }

    @Test func generatedIdsNeverRepeatAndShareOnlyTheProcessHalf() {
        let ids = (0..<10_000).map { _ in RequestID.generate() }
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids.map { $0.prefix(16) }).count == 1)
    }
}

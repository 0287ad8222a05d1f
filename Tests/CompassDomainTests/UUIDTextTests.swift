import Foundation
import Testing
import UUIDText

@Suite("UUID text read and written byte by byte, as Foundation does it")
struct UUIDTextTests {
    @Test func writesWhatFoundationWritesInLowerCase() {
        for _ in 0..<1_000 {
            let id = UUID()
            #expect(id.lowercasedText == id.uuidString.lowercased())
        }
        #expect(UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 254, 255)).lowercasedText
            == "00010203-0405-0607-0809-0a0b0c0dfeff")
    }

    @Test func writesAPrefixAndTheTextAsOneString() {
        for prefix in ["", "doc-", "/interactions/", "é-", String(repeating: "p", count: 40)] {
            let id = UUID()
            #expect(id.lowercasedText(prefixedBy: prefix) == prefix + id.uuidString.lowercased())
        }
    }

    @Test func readsBothCasesBack() {
        for _ in 0..<1_000 {
            let id = UUID()
            #expect(UUID(canonicalText: id.uuidString) == id)
            #expect(UUID(canonicalText: id.uuidString.lowercased()) == id)
        }
    }

    @Test("refuses what UUID(uuidString:) refuses", arguments: [
        "", "not-a-uuid", "7f1c2e4a-0000-4000-8000-00000000000", "7f1c2e4a-0000-4000-8000-0000000000000",
        "7f1c2e4a00000-4000-8000-000000000000", "7f1c2e4a-0000-4000-8000-00000000000g", "{7f1c2e4a-0000-4000-8000-000000000000}",
        "7f1c2e4a-0000-4000-8000-00000000000 ", "7f1c2e4a+0000-4000-8000-000000000000",
    ])
    func refusesMalformedText(_ text: String) {
        #expect(UUID(canonicalText: text) == nil)
        #expect(UUID(uuidString: text) == nil)
    }
}

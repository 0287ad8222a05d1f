import Foundation
import Testing
@testable import CompassDomain

@Suite("Parent activity: keyset cursor and pages")
struct ParentActivityCursorTests {
    func activity(_ n: Int, at date: Date) -> ParentActivity {
        ParentActivity(id: Fixture.uuid(n), familyId: Fixture.uuid(700), triggeringUserId: Fixture.uuid(701),
                       activityType: .settingsUpdated, targetEntity: "Screen time", targetEntityId: Fixture.uuid(800),
                       createdAt: date)
    }

    @Test("a cursor round-trips through its URL-safe text with microsecond precision")
    func roundTrip() throws {
        let date = Fixture.date("2026-02-08 11:59:58.123456+00")
        let cursor = ParentActivityCursor(createdAt: date, id: Fixture.uuid(42))
        let text = cursor.encoded
        #expect(text.count == 39)
        #expect(text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        let decoded = try ParentActivityCursor(encoded: text)
        #expect(decoded == cursor)
        #expect(decoded.microsecondsSinceEpoch == 1_770_551_998_123_456)
        #expect(decoded.timestampText == "2026-02-08T11:59:58.123456+00:00")
        #expect(decoded.id == Fixture.uuid(42))
        #expect(ParentActivityCursor(text) == cursor)
    }

    @Test("cursors for many times and ids round-trip")
    func roundTripMany() throws {
        for n in 0..<200 {
            let micros = Int64(n) * 7_919_000_003 - 500_000_000_000
            let cursor = ParentActivityCursor(microsecondsSinceEpoch: micros, id: UUID())
            #expect(try ParentActivityCursor(encoded: cursor.encoded) == cursor)
        }
    }

    @Test("every single-character edit of a cursor is refused")
    func tamperedCharacters() {
        let text = ParentActivityCursor(createdAt: Fixture.now, id: Fixture.uuid(42)).encoded
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for index in text.indices {
            let original = text[index]
            let replacement = alphabet.first { $0 != original }!
            var edited = text
            edited.replaceSubrange(index...index, with: String(replacement))
            #expect(throws: ParentActivityCursorError.self) { try ParentActivityCursor(encoded: edited) }
        }
    }

    @Test("a well-formed cursor whose time is outside years 1 to 9999 is refused, not formatted")
    func timesOutOfRange() throws {
        // The checksum is public knowledge, so these are what anyone can send.
        for micros in [Int64.min, -9_223_372_022_400_000_001, -62_135_596_800_000_001, 253_402_300_800_000_000, .max] {
            let forged = ParentActivityCursor(microsecondsSinceEpoch: micros, id: Fixture.uuid(42)).encoded
            #expect(throws: ParentActivityCursorError.timeOutOfRange) { try ParentActivityCursor(encoded: forged) }
        }
        let first = try ParentActivityCursor(
            encoded: ParentActivityCursor(microsecondsSinceEpoch: -62_135_596_800_000_000, id: Fixture.uuid(1)).encoded)
        #expect(first.timestampText == "0001-01-01T00:00:00.000000+00:00")
        let last = try ParentActivityCursor(
            encoded: ParentActivityCursor(microsecondsSinceEpoch: 253_402_300_799_999_999, id: Fixture.uuid(1)).encoded)
        #expect(last.timestampText == "9999-12-31T23:59:59.999999+00:00")
    }

    @Test("a cursor with a shifted time but a stale checksum is refused as altered")
    func tamperedPayload() throws {
        let text = ParentActivityCursor(createdAt: Fixture.now, id: Fixture.uuid(42)).encoded
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        var bytes = [UInt8](Data(base64Encoded: standard)!)
        bytes[8] ^= 0x01
        let forged = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        #expect(throws: ParentActivityCursorError.altered) { try ParentActivityCursor(encoded: forged) }
    }

    @Test("anything we did not issue is refused with a clear reason", arguments: [
        ("", ParentActivityCursorError.empty),
        ("not a cursor!", .notBase64URL),
        ("abc+/def", .notBase64URL),
        ("AAAA", .wrongLength),
        (String(repeating: "A", count: 39), .unsupportedVersion),
        ("eyJjcmVhdGVkQXQiOiIyMDI2In0", .wrongLength),
    ])
    func rejects(text: String, error: ParentActivityCursorError) {
        #expect(throws: error) { try ParentActivityCursor(encoded: text) }
        #expect(ParentActivityCursor(text) == nil)
    }

    @Test("error messages explain the problem without echoing the cursor")
    func messages() {
        #expect(ParentActivityCursorError.altered.description.contains("not issued by this server"))
        let bad = "zzzz-secret-looking-text"
        do {
            _ = try ParentActivityCursor(encoded: bad)
            Issue.record("expected a refusal")
        } catch {
            #expect(!error.description.contains(bad))
        }
    }

    @Test("the cursor admits rows strictly after it in (created_at DESC, id DESC) order")
    func admits() {
        let cursor = ParentActivityCursor(after: activity(5, at: Fixture.now))
        #expect(cursor.admits(activity(9, at: Fixture.ago(1))))
        #expect(cursor.admits(activity(4, at: Fixture.now)))
        #expect(!cursor.admits(activity(5, at: Fixture.now)))
        #expect(!cursor.admits(activity(6, at: Fixture.now)))
        #expect(!cursor.admits(activity(1, at: Fixture.now.addingTimeInterval(0.000_001))))
    }

    @Test("a page takes limit rows and points the next cursor at its last row")
    func pageFromFetchedRows() {
        let rows = (1...6).map { activity($0, at: Fixture.ago(Double($0) * 60)) }
        let page = ParentActivityPage(fetched: rows, limit: 5)
        #expect(page.activities.map(\.id) == (1...5).map(Fixture.uuid))
        #expect(page.nextCursor == ParentActivityCursor(after: rows[4]))
        let last = ParentActivityPage(fetched: Array(rows.prefix(5)), limit: 5)
        #expect(last.nextCursor == nil)
        #expect(ParentActivityPage(fetched: [], limit: 5).activities.isEmpty)
    }

    @Test("paging with cursors visits every row once, even when rows share a time and new rows arrive")
    func stablePaging() {
        let instant = Fixture.ago(3_600)
        var all = (1...7).map { activity($0, at: instant) } + (8...12).map { activity($0, at: Fixture.ago(Double($0) * 600)) }
        all.append(activity(99, at: Fixture.daysAgo(31)))
        var seen: [UUID] = []
        var cursor: ParentActivityCursor?
        var pages = 0
        repeat {
            let page = ParentActivityPage.page(of: all, after: cursor, limit: 3, now: Fixture.now)
            seen += page.activities.map(\.id)
            cursor = page.nextCursor
            pages += 1
            // Rows written between pages are newer than every cursor, so they never shift the pages.
            all.append(activity(100 + pages, at: Fixture.now.addingTimeInterval(Double(pages))))
        } while cursor != nil && pages < 20
        let expected = (1...7).reversed().map(Fixture.uuid) + (8...12).map(Fixture.uuid)
        #expect(seen == expected)
        #expect(pages == 4)
    }

    @Test("the page encodes nextCursor as text, or null on the last page")
    func pageJSON() throws {
        let rows = (1...3).map { activity($0, at: Fixture.ago(Double($0))) }
        let page = ParentActivityPage(fetched: rows, limit: 2)
        let object = try Fixture.jsonObject(page)
        #expect(object["nextCursor"] as? String == page.nextCursor?.encoded)
        #expect((object["activities"] as? [Any])?.count == 2)
        #expect(try Fixture.jsonObject(ParentActivityPage(fetched: rows, limit: 5))["nextCursor"] is NSNull)
        #expect(try JSONDecoder().decode(ParentActivityPage.self, from: JSONEncoder().encode(page)) == page)
    }
}

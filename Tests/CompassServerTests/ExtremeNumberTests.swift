import CompassDomain
import CompassTestSupport
import CompassTokens
import Foundation
import Testing

/// Any whole number a client can write reaches the worker's window and page arithmetic: at the
/// ends of `Int` it is an empty page or a clear refusal, and the worker keeps serving (it used to
/// trap on the overflow and take every connection down with it).
@Suite("Numbers at the ends of Int over HTTP")
struct ExtremeNumberTests {
    static let max = "9223372036854775807"

    @Test("REST offset, limit and Range, /api page and cursor, admin page at Int's ends")
    func windowsAndPagesAtIntMax() async throws {
        try await ServerHarness.with { harness in
            let issuer = try await AccessTokenIssuer(secret: ServerHarness.secret)
            let sofia = try await issuer.token(role: .authenticated, subject: AppAPIServerTests.sofia, lifetime: 600)
            let asSofia = ["apikey": harness.keys.anon, "Authorization": "Bearer \(sofia)"]

            let farOffset = try await HTTPReply.exchange(
                "GET", "/rest/v1/schools?select=id&offset=\(Self.max)&limit=10", port: harness.port, headers: asSofia)
            #expect(farOffset.status == 200, "\(farOffset.body)")
            #expect(farOffset.body == "[]")
            let hugeLimit = try await HTTPReply.exchange(
                "GET", "/rest/v1/schools?select=id&offset=1&limit=\(Self.max)", port: harness.port, headers: asSofia)
            #expect(hugeLimit.status == 200, "\(hugeLimit.body)")
            #expect((hugeLimit.json as? [Any])?.count == 2)  // Sofia's family has three schools
            let lowest = try await HTTPReply.exchange(
                "GET", "/rest/v1/schools?select=id&limit=-9223372036854775808", port: harness.port, headers: asSofia)
            #expect(lowest.status == 416, "\(lowest.body)")
            let wideRange = try await HTTPReply.exchange(
                "GET", "/rest/v1/schools?select=id", port: harness.port, headers: asSofia.merging(["Range": "0-\(Self.max)"]) { $1 })
            #expect(wideRange.status == 200, "\(wideRange.body)")
            let farRange = try await HTTPReply.exchange(
                "GET", "/rest/v1/schools?select=id&offset=5", port: harness.port,
                headers: asSofia.merging(["Range": "\(Self.max)-\(Self.max)"]) { $1 })
            #expect(farRange.status == 200, "\(farRange.body)")
            #expect(farRange.body == "[]")

            for query in ["page=\(Self.max)", "page=461168601842738791", "page=\(Self.max)&search=stanford"] {
                let page = try await HTTPReply.exchange("GET", "/api/v1/feed?\(query)", port: harness.port, headers: asSofia)
                #expect(page.status == 200, "\(query): \(page.body)")
                let object = page.json as? [String: Any]
                #expect((object?["events"] as? [Any])?.isEmpty == true, "\(query)")
            }

            // A cursor's checksum is no secret: one at Int64.min microseconds is well-formed.
            let forged = ParentActivityCursor(microsecondsSinceEpoch: .min, id: UUID()).encoded
            let cursor = try await HTTPReply.exchange(
                "GET", "/api/v1/family-activity?family=\(UUID().uuidString)&cursor=\(forged)", port: harness.port, headers: asSofia)
            #expect(cursor.status == 400, "\(cursor.body)")
            #expect(cursor.body.contains("outside years 1 to 9999"), "\(cursor.body)")

            let admin = ["apikey": harness.keys.anon, "Authorization": "Bearer \(harness.keys.serviceRole)"]
            let users = try await HTTPReply.exchange(
                "GET", "/auth/v1/admin/users?page=\(Self.max)&per_page=1000", port: harness.port, headers: admin)
            #expect(users.status == 200, "\(users.body)")
            #expect(((users.json as? [String: Any])?["users"] as? [Any])?.isEmpty == true)

            let health = try await HTTPReply.exchange("GET", "/auth/v1/health", port: harness.port, headers: ["apikey": harness.keys.anon])
            #expect(health.status == 200)
        }
    }
}

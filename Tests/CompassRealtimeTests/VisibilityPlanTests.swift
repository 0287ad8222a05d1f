import CompassTokens
import Foundation
import Testing

@testable import CompassRealtime

/// The fan-out's decision without a socket or a database: which checks to ask, who gets what.
@Suite("Visibility plan")
struct VisibilityPlanTests {
    /// `public.notes (id uuid PRIMARY KEY, body text)` with RLS; anon may read nothing.
    static let notes = RealtimeTableMetadata(
        name: RealtimeTableName(schema: "public", table: "notes"), quotedName: #""public"."notes""#,
        columns: [
            RealtimeColumn(
                name: "id", quotedName: #""id""#, typeName: "uuid", sqlType: "uuid", kind: .uuid, isPrimaryKey: true,
                isReplicaIdentityIndex: false, selectableBy: [.authenticated, .serviceRole]),
            RealtimeColumn(
                name: "body", quotedName: #""body""#, typeName: "text", sqlType: "text", kind: .text, isPrimaryKey: false,
                isReplicaIdentityIndex: false, selectableBy: [.authenticated, .serviceRole]),
        ],
        hasRowSecurity: true, isEnabled: true, replicaIdentity: "d")

    static func change(_ id: Int64, _ type: RealtimeChangeType, key: String?) throws -> ParsedChange {
        let row = key.map { #"{"id":"\#($0)","body":"x"}"# } ?? #"{"body":"x"}"#
        return try ParsedChange(
            change: RealtimeChange(
                id: id, schema: "public", table: "notes", type: type, recordJSON: type == .delete ? nil : row,
                oldRecordJSON: type == .insert ? nil : row, recordedAtMicroseconds: 0),
            table: notes)
    }

    static func claims(_ role: APIRole, _ subject: String?) -> AccessClaims {
        AccessClaims(
            role: role, subject: subject, expiresAt: .distantFuture,
            claimsJSON: #"{"role":"\#(role.rawValue)","sub":"\#(subject ?? "")"}"#)
    }

    static func channel(_ topic: String, _ claims: AccessClaims) -> ChannelRecord {
        ChannelRecord(
            topic: topic, joinRef: "1", claims: claims, bindings: [],
            outbox: ClientOutbox(clientID: topic.hashValue, version: .v1, capacity: 10))
    }

    static let alice = channel("realtime:alice", claims(.authenticated, "alice"))
    static let aliceAgain = channel("realtime:alice-2", claims(.authenticated, "alice"))
    static let bob = channel("realtime:bob", claims(.authenticated, "bob"))
    static let service = channel("realtime:service", claims(.serviceRole, nil))
    static let anonymous = channel("realtime:anon", claims(.anon, nil))

    static func topics(_ receivers: [[ChannelMatch]]) -> [[String]] {
        receivers.map { $0.map(\.channel.topic) }
    }

    @Test func oneCheckPerTableAndClaimsWithEachRowAskedOnce() throws {
        let changes = [try Self.change(1, .insert, key: "k1"), try Self.change(2, .update, key: "k2")]
        let everyone = [Self.alice, Self.aliceAgain, Self.bob, Self.service].map { ChannelMatch(channel: $0, ids: [1]) }
        let plan = VisibilityPlan(changes: changes, matches: [everyone, everyone])
        #expect(plan.checks.count == 2)  // alice (both of her channels) and bob; the service role needs none
        #expect(plan.checks.map(\.key.claimsJSON) == [Self.alice.claims.claimsJSON, Self.bob.claims.claimsJSON])
        #expect(plan.checks.map(\.rowKeys) == [[["k1"], ["k2"]], [["k1"], ["k2"]]])
    }

    @Test func answersDecideWhoReceivesWhat() throws {
        let changes = [try Self.change(1, .insert, key: "k1"), try Self.change(2, .insert, key: "k2")]
        let everyone = [Self.alice, Self.aliceAgain, Self.bob, Self.service].map { ChannelMatch(channel: $0, ids: [1]) }
        let plan = VisibilityPlan(changes: changes, matches: [everyone, everyone])
        // Alice may read row 0 (k1), Bob row 1 (k2).
        let receivers = plan.receivers(given: [[0], [1]])
        #expect(Self.topics(receivers) == [
            ["realtime:alice", "realtime:alice-2", "realtime:service"],
            ["realtime:bob", "realtime:service"],
        ])
        // No answers at all (nothing visible): only the service role receives.
        #expect(Self.topics(plan.receivers(given: [[], []])) == [["realtime:service"], ["realtime:service"]])
    }

    @Test func deletesGoToRolesThatMayReadTheKeyWithoutAsking() throws {
        let changes = [try Self.change(1, .delete, key: "k1")]
        let matches = [Self.alice, Self.anonymous, Self.service].map { ChannelMatch(channel: $0, ids: [1]) }
        let plan = VisibilityPlan(changes: changes, matches: [matches])
        #expect(plan.checks.isEmpty)
        #expect(Self.topics(plan.receivers(given: [])) == [["realtime:alice", "realtime:service"]])
    }

    @Test func aRowWithoutItsKeyIsNeitherAskedNorSent() throws {
        let changes = [try Self.change(1, .insert, key: nil)]
        let matches = [Self.alice, Self.service].map { ChannelMatch(channel: $0, ids: [1]) }
        let plan = VisibilityPlan(changes: changes, matches: [matches])
        #expect(plan.checks.isEmpty)
        #expect(Self.topics(plan.receivers(given: [])) == [["realtime:service"]])
    }

    @Test func changesNobodyWantsPlanNothing() throws {
        let plan = VisibilityPlan(changes: [try Self.change(1, .insert, key: "k1")], matches: [[]])
        #expect(plan.checks.isEmpty)
        #expect(Self.topics(plan.receivers(given: [])) == [[]])
    }
}

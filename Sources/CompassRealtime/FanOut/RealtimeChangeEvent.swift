import CompassTokens

/// The wire format of a change event, in one place: the `data` object as one role may see
/// it, and the `postgres_changes` frame that carries it to one channel.
///
/// ```swift
/// let data = RealtimeChangeEvent.data(for: change, role: .authenticated, maximumRecordBytes: 1 << 20)
/// let text = RealtimeChangeEvent.frame(data: data, ids: [1], topic: "realtime:feed", version: .v1)
/// ```
enum RealtimeChangeEvent {
    /// Values longer than this survive in an oversized row (as the reference server does).
    static let oversizedValueLimit = 64

    /// `{"schema","table","commit_timestamp","type","columns","record"/"old_record","errors"}` as `role` may see it.
    ///
    /// Records pass through as Postgres wrote them when the role sees every column. Old
    /// records carry what the replica identity provides, cut to the primary key when the
    /// table has RLS (a DELETE cannot be checked against a row that is gone).
    static func data(for parsed: ParsedChange, role: APIRole, maximumRecordBytes: Int) -> String {
        let view = parsed.table.view(for: role)
        var errors: [String] = []
        var output = #"{"schema":"#
        RealtimeJSON.writeQuoted(parsed.change.schema, to: &output)
        output += #","table":"#
        RealtimeJSON.writeQuoted(parsed.change.table, to: &output)
        output += #","commit_timestamp":""#
        output += RealtimeTimestamp.isoMillisecondsUTC(microseconds: parsed.change.recordedAtMicroseconds)
        output += #"","type":""# + parsed.change.type.rawValue + #"","columns":"#
        output += view.columnsJSON
        if parsed.change.type != .delete, let raw = parsed.change.recordJSON, let members = parsed.record {
            output += #","record":"#
            if raw.utf8.count > maximumRecordBytes {
                errors.append("Error 413: Payload Too Large")
                writeObject(members.filter { view.visibleColumns.contains($0.name) && $0.rawText.utf8.count <= oversizedValueLimit }, to: &output)
            } else if view.seesEveryColumn {
                output += raw
            } else {
                writeObject(members.filter { view.visibleColumns.contains($0.name) }, to: &output)
            }
        }
        if parsed.change.type != .insert, let members = parsed.oldRecord {
            let keyNames = Set(parsed.table.primaryKey.map(\.name))
            output += #","old_record":"#
            writeObject(
                members.filter { view.visibleColumns.contains($0.name) && (!parsed.table.hasRowSecurity || keyNames.contains($0.name)) },
                to: &output)
        }
        output += #","errors":"#
        output += errors.isEmpty ? "null" : RealtimeJSON.array(errors.map { .string($0) }).jsonText
        output += "}"
        return output
    }

    /// The frame for one channel: `postgres_changes` on `topic` with payload `{"ids":[…],"data":…}`.
    ///
    /// `data` is shared by every channel of a role (encoded once); only `ids` and the topic differ.
    static func frame(data: String, ids: [Int], topic: String, version: RealtimeProtocolVersion) -> String {
        let payload = "{\"ids\":[" + ids.map(String.init).joined(separator: ",") + "],\"data\":" + data + "}"
        return RealtimeCodec.encode(
            topic: topic, event: RealtimeEvent.postgresChanges, payloadJSON: payload, ref: nil, joinRef: nil,
            version: version)
    }

    private static func writeObject(_ members: [RealtimeJSONMember], to output: inout String) {
        output += "{"
        for (index, member) in members.enumerated() {
            if index > 0 { output += "," }
            RealtimeJSON.writeQuoted(member.name, to: &output)
            output += ":"
            output += member.rawText
        }
        output += "}"
    }
}

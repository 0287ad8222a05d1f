import Postgres

/// How the poller reads `realtime.changes`: pages in (xid, id) order, bounded in rows and in
/// bytes, with the rows only of tables the sink wants.
extension SnapshotChangeSource {
    /// A page of one round: the round's snapshot, its changes, and the bytes of their rows.
    struct Page {
        var snapshot: String
        var changes: [PagedChange]
        var rowBytes: Int
    }

    /// A change with its place in page order.
    struct PagedChange {
        var change: RealtimeChange
        var position: ChangeCursor.Position
    }

    /// The next page after `cursor`: at most `rowLimit` changes, ending once `pageByteBudget`
    /// bytes of rows are read. Changes of tables outside `wanted` come without their rows.
    func readPage(after cursor: ChangeCursor, rowLimit: Int, wanted: Set<RealtimeTableName>?) async throws -> Page {
        if let round = cursor.pendingRound {
            let query = pageQuery(
                where: """
                    c.xid >= pg_snapshot_xmin(\(cursor.snapshot)::pg_snapshot)
                       AND NOT pg_visible_in_snapshot(c.xid, \(cursor.snapshot)::pg_snapshot)
                       AND pg_visible_in_snapshot(c.xid, \(round.snapshot)::pg_snapshot)
                       AND (c.xid, c.id) > (\(round.last.xid)::xid8, \(round.last.id))
                    """,
                rowLimit: rowLimit, wanted: wanted)
            let result = try await database.asServiceRole([Self.indexOnly, query])[1]
            return try Self.page(snapshot: round.snapshot, rows: result, offset: 0)
        }
        // One statement takes the new snapshot and reads with it: pg_current_snapshot() is
        // the statement's own snapshot, so "visible now" and "read now" are the same set.
        let page = pageQuery(
            where: """
                c.xid >= pg_snapshot_xmin(\(cursor.snapshot)::pg_snapshot)
                   AND NOT pg_visible_in_snapshot(c.xid, \(cursor.snapshot)::pg_snapshot)
                """,
            rowLimit: rowLimit, wanted: wanted)
        let query: PostgresQuery = """
            SELECT pg_current_snapshot()::text, page.*
              FROM (SELECT 1) AS one
              LEFT JOIN LATERAL (\(page)) AS page ON true
            """
        let result = try await database.asServiceRole([Self.indexOnly, query])[1]
        return try Self.page(snapshot: try result[0].decode(String.self, at: 0), rows: result, offset: 1)
    }

    /// Reads the rows of changes that came without them but whose table is wanted now.
    ///
    /// The page was read with the tables wanted when its read began. A channel that joined
    /// after that, but before a change of its table committed, must still get the change.
    /// The rows are read here, after the page, so every channel that joined before the
    /// commit counts; the few changes of a table that was just joined are read again by id.
    func fillingRows(of changes: [RealtimeChange], wanted: Set<RealtimeTableName>?) async throws -> [RealtimeChange] {
        let unread = changes.indices.filter { index in
            changes[index].rowsLeftUnread
                && wanted.map { $0.contains(RealtimeTableName(schema: changes[index].schema, table: changes[index].table)) } ?? true
        }
        guard !unread.isEmpty else { return changes }
        let query: PostgresQuery = """
            SELECT c.id, c.record::text, c.old_record::text
              FROM realtime.changes AS c
             WHERE c.id = ANY(\(unread.map { changes[$0].id })::int8[])
            """
        let result = try await database.asServiceRole([query])[0]
        var rows: [Int64: (record: String?, oldRecord: String?)] = [:]
        for row in result {
            rows[try row.decode(Int64.self, at: 0)] = (try row.decode(String?.self, at: 1), try row.decode(String?.self, at: 2))
        }
        var filled = changes
        for index in unread {
            // Pruned meanwhile (older than the retention): it stays unread, and unsent.
            guard let found = rows[filled[index].id] else { continue }
            filled[index].recordJSON = found.record
            filled[index].oldRecordJSON = found.oldRecord
            filled[index].rowsLeftUnread = false
        }
        return filled
    }

    /// The page's SELECT: the changes matching `condition`, in (xid, id) order, up to
    /// `rowLimit` of them and until the rows read reach the byte budget.
    ///
    /// Each row's text is made once (in `read`); the running total counts the bytes before
    /// each change, so a page keeps at least its first change whatever its size. A table counts
    /// as wanted when its schema and its name each are among the wanted ones: cheaper than
    /// matching pairs, and a table wanted by mistake only has its rows read, as before.
    private func pageQuery(where condition: PostgresQuery, rowLimit: Int, wanted: Set<RealtimeTableName>?) -> PostgresQuery {
        let tables = wanted.map(Array.init) ?? []
        return """
            SELECT counted.id, counted.schema_name, counted.table_name, counted.type, counted.record, counted.old_record,
                   counted.recorded_at, counted.xid::text, counted.rows_left_unread
              FROM (SELECT read.*,
                           coalesce(sum(coalesce(octet_length(read.record), 0) + coalesce(octet_length(read.old_record), 0))
                               OVER (ORDER BY read.xid, read.id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
                               AS bytes_before
                      FROM (SELECT c.id, c.schema_name, c.table_name, c.type,
                                   CASE WHEN wanted.rows THEN c.record::text END AS record,
                                   CASE WHEN wanted.rows THEN c.old_record::text END AS old_record,
                                   (extract(epoch FROM c.created_at) * 1000000)::int8 AS recorded_at,
                                   c.xid, NOT wanted.rows AS rows_left_unread
                              FROM realtime.changes AS c
                             CROSS JOIN LATERAL (
                                   SELECT \(wanted == nil)
                                          OR (c.schema_name = ANY(\(tables.map(\.schema))::text[])
                                              AND c.table_name = ANY(\(tables.map(\.table))::text[]))
                                          AS rows) AS wanted
                             WHERE \(condition)
                             ORDER BY c.xid, c.id
                             LIMIT \(rowLimit)) AS read) AS counted
             WHERE counted.bytes_before < \(pageByteBudget)
             ORDER BY counted.xid, counted.id
            """
    }

    /// The poll must walk the (xid, id) index: a sequential scan, chosen on stale statistics
    /// of this fast-growing table, would read every stored change on every poll.
    private static let indexOnly: PostgresQuery = "SELECT set_config('enable_seqscan', 'off', true)"

    private static func page(snapshot: String, rows: PostgresResult, offset: Int) throws -> Page {
        var page = Page(snapshot: snapshot, changes: [], rowBytes: 0)
        page.changes.reserveCapacity(rows.count)
        for row in rows where !row.isNull(at: offset) {
            let change = try change(from: row, offset: offset)
            page.rowBytes += (change.change.recordJSON?.utf8.count ?? 0) + (change.change.oldRecordJSON?.utf8.count ?? 0)
            page.changes.append(change)
        }
        return page
    }

    private static func change(from row: PostgresRow, offset: Int) throws -> PagedChange {
        let typeName = try row.decode(String.self, at: offset + 3)
        guard let type = RealtimeChangeType(rawValue: typeName) else {
            throw PostgresDecodingFailure("unknown change type")
        }
        var change = RealtimeChange(
            id: try row.decode(Int64.self, at: offset),
            schema: try row.decode(String.self, at: offset + 1),
            table: try row.decode(String.self, at: offset + 2),
            type: type,
            recordJSON: try row.decode(String?.self, at: offset + 4),
            oldRecordJSON: try row.decode(String?.self, at: offset + 5),
            recordedAtMicroseconds: try row.decode(Int64.self, at: offset + 6))
        change.rowsLeftUnread = try row.decode(Bool.self, at: offset + 8)
        let position = ChangeCursor.Position(xid: try row.decode(String.self, at: offset + 7), id: change.id)
        return PagedChange(change: change, position: position)
    }
}

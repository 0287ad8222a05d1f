extension SQLBuilder {
    /// Opens `pgrst_reply`, the CTE after `pgrst_source` whose one row is the reply: total,
    /// page count, body and Location, in that order. ``appendBoundedReply(maximumBytes:)`` closes it.
    mutating func openReply() {
        append("), pgrst_reply AS (SELECT ")
    }

    /// Closes `pgrst_reply` and selects it with the body withheld (NULL) when it is longer than
    /// `maximumBytes`, plus the body's length: a reply too large to send never leaves Postgres,
    /// and the worker can still say how large it would have been. Then `response.headers` and
    /// `response.status`, the settings a function may make to shape the reply, as PostgREST reads them.
    /// `countsInserts` adds how many rows an upsert inserted (`pgrst.inserted`).
    mutating func appendBoundedReply(maximumBytes: Int, countsInserts: Bool = false) {
        append(") SELECT pgrst_reply.total_result_set, pgrst_reply.page_total,")
        append(" CASE WHEN pg_catalog.octet_length(pgrst_reply.body) <= ")
        bind(String(maximumBytes))
        append("::bigint THEN pgrst_reply.body END AS body, pgrst_reply.location,")
        append(" pg_catalog.octet_length(pgrst_reply.body) AS body_bytes,")
        // Read once the statement (and any function it called) has run: what it set for the reply.
        append(" pg_catalog.current_setting('response.headers', true) AS response_headers,")
        append(" pg_catalog.current_setting('response.status', true) AS response_status")
        if countsInserts { append(", nullif(pg_catalog.current_setting('pgrst.inserted', true), '')::int AS inserted") }
        append(" FROM pgrst_reply")
    }
}

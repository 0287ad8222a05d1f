extension SQLBuilder {
    /// Opens `pgrst_reply`, the CTE after `pgrst_source` whose one row is the reply: total,
    /// page count, body and Location, in that order. ``appendBoundedReply(maximumBytes:)`` closes it.
    /// An explained statement selects the reply's row straight away (see ``init(explaining:)``).
    mutating func openReply() {
        append(explains ? ") SELECT " : "), pgrst_reply AS (SELECT ")
    }

    /// Closes `pgrst_reply` and selects it with the body withheld (NULL) when it is longer than
    /// `maximumBytes`, plus the body's length: a reply too large to send never leaves Postgres,
    /// and the worker can still say how large it would have been. Then `response.headers` and
    /// `response.status`, the settings a function may make to shape the reply, as PostgREST reads them.
    /// `countsInserts` adds how many rows an upsert inserted (`pgrst.inserted`).
    mutating func appendBoundedReply(maximumBytes: Int, countsInserts: Bool = false) {
        guard !explains else { return }
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

    /// The body aggregate over `_postgrest_t`: `[]` when empty, or the first row (`null` when none)
    /// for a single object, nulls stripped when asked; for CSV the keys of the first row, then a
    /// line per row; for a media type handler, what it makes of the rows (``append(handlerBody:schema:scalar:)``).
    mutating func append(body media: ReplyMediaType, schema: String) {
        switch (media.shape, media.stripsNulls) {
        case (.array, false): append("coalesce(json_agg(_postgrest_t), '[]')::text")
        case (.array, true): append("coalesce(json_strip_nulls(json_agg(_postgrest_t)), '[]')::text")
        case (.singleObject, false): append("coalesce((json_agg(_postgrest_t)->0)::text, 'null')")
        case (.singleObject, true): append("coalesce(json_strip_nulls(json_agg(_postgrest_t)->0)::text, 'null')")
        case (.csv, _):
            // A row's text form is `(a,b,"c d")`: CSV once its parentheses are dropped. The header
            // is the keys of the first row sent (what `select=` kept, not every column written).
            append(
                """
                (SELECT coalesce(string_agg(pgrst_keys.key, ','), '') FROM \
                json_object_keys(row_to_json((array_agg(_postgrest_t))[1])) AS pgrst_keys(key)) || chr(10) || \
                coalesce(string_agg(substring(_postgrest_t::text, 2, length(_postgrest_t::text) - 2), chr(10)), '')
                """)
        case (.handler(let handler), _): append(handlerBody: handler, schema: schema, scalar: false)
        }
    }

    /// A media type handler's body: a function's value as it is, or the handler aggregate over the
    /// rows (`scalar`: over a function's values), the rows cast to the table's row type it was made
    /// for. As text; hex for a domain over `bytea`, which the worker turns back into bytes.
    mutating func append(handlerBody handler: MediaHandler, schema: String, scalar: Bool) {
        // Text through the type's output function (`format`'s `%s`), as Postgres sends a value:
        // an xml value loses the newline that opens it, as PostgREST's replies do.
        append(handler.isBinary ? "pg_catalog.encode(" : "pg_catalog.format('%s', ")
        switch handler.source {
        case .returnedValue:
            append("(pg_catalog.array_agg(_postgrest_t.pgrst_scalar))[1]")
        case .geoJSON(let functionSchema):
            // A row without a geometry column is PostGIS's 22023 "geometry column is missing".
            append("pg_catalog.json_build_object('type', 'FeatureCollection', 'features', coalesce(pg_catalog.json_agg(")
            append(qualifiedName: "st_asgeojson", in: functionSchema)
            append("(_postgrest_t)::json), '[]'))")
        case .aggregate(let name, let rowType):
            append(qualifiedName: name, in: schema)
            if scalar {
                append("(_postgrest_t.pgrst_scalar)")
            } else if let rowType {
                append("(_postgrest_t::")
                append(qualifiedName: rowType, in: schema)
                append(")")
            } else {
                append("(_postgrest_t)")
            }
        }
        append(handler.isBinary ? "::bytea, 'hex')" : ")")
    }
}

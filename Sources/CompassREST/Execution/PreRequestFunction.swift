import Postgres

/// PostgREST's `db-pre-request`: a function every request calls inside its transaction, after
/// its role and `request.*` settings are in place and before its statement, to refuse it
/// (`RAISE`), change its role (`SET LOCAL ROLE`) or set response headers (`response.headers`).
///
/// ```swift
/// let check = PreRequestFunction("public.check_request")   // SELECT "public"."check_request"()
/// ```
/// Named as PostgREST reads the setting: the text before the first `.` is the schema; without
/// one, the request's search path finds it. Each part is quoted, so the name never becomes SQL.
public struct PreRequestFunction: Sendable, Hashable {
    /// The schema, or nil to let the search path find the function.
    public var schema: String?
    public var name: String

    /// Reads a setting's value; nil for an empty one (no function).
    public init?(_ setting: String) {
        let text = setting.trimmingSpaces
        guard !text.isEmpty else { return nil }
        if let dot = text.firstIndex(of: ".") {
            // `.fn` names `fn` on the search path, as PostgREST reads it.
            schema = dot == text.startIndex ? nil : String(text[..<dot])
            name = String(text[text.index(after: dot)...])
        } else {
            schema = nil
            name = text
        }
    }

    /// `SELECT "schema"."name"()`, prepared per connection like the rest of a request's statements.
    var call: PostgresQuery {
        let qualified = (schema.map { SQLBuilder.quoted($0) + "." } ?? "") + SQLBuilder.quoted(name)
        return PostgresQuery(unsafeSQL: "SELECT " + qualified + "()").prepared
    }
}

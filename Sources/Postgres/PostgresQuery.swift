/// SQL text plus bound values; every interpolated value becomes a `$n` parameter.
///
/// ```swift
/// let query: PostgresQuery = "SELECT name FROM schools WHERE id = \(schoolID)"
/// ```
/// Raw SQL text can only be spliced in with an explicitly unsafe spelling:
/// `\(unescaped: "DESC")` or `PostgresQuery(unsafeSQL:)`.
public struct PostgresQuery: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The SQL with `$1…$n` placeholders.
    public var sql: String
    /// The parameters in text format; nil is SQL NULL.
    public var binds: [String?]
    /// Whether the connection prepares this SQL once and then executes it by name (see ``prepared``).
    public var isPrepared = false

    /// Wraps SQL text that was not built by interpolation. The caller vouches that it holds no input.
    public init(unsafeSQL sql: String, binds: [String?] = []) {
        self.sql = sql
        self.binds = binds
    }

    public init(stringLiteral value: String) {
        self.init(unsafeSQL: value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(unsafeSQL: stringInterpolation.sql, binds: stringInterpolation.binds)
    }

    /// This statement, marked for the connection's prepared-statement cache.
    ///
    /// The first run on a connection prepares it (in the same round trip); later runs execute it
    /// by name, skipping parse and, once Postgres settles on a generic plan, planning too. For the
    /// statements an app sends over and over (fixed SQL text, values bound); one-off SQL (DDL, text
    /// built per request from many shapes) stays unnamed.
    public var prepared: PostgresQuery {
        var query = self
        query.isPrepared = true
        return query
    }

    /// Builds SQL from literal text and `$n`-bound values.
    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds: [String?] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
            binds.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// Binds a value as the next `$n` parameter.
        public mutating func appendInterpolation(_ value: some PostgresEncodable) {
            binds.append(value.postgresText)
            sql += "$\(binds.count)"
        }

        /// Binds an optional value; nil becomes NULL.
        public mutating func appendInterpolation(_ value: (some PostgresEncodable)?) {
            binds.append(value?.postgresText)
            sql += "$\(binds.count)"
        }

        /// Splices raw SQL text: only for fixed, trusted fragments such as `DESC`.
        public mutating func appendInterpolation(unescaped text: String) {
            sql += text
        }

        /// Splices another query, renumbering its parameters.
        public mutating func appendInterpolation(_ fragment: PostgresQuery) {
            let offset = binds.count
            sql += PostgresQuery.renumber(fragment.sql, by: offset)
            binds += fragment.binds
        }
    }

    /// Shifts `$n` placeholders by `offset`, outside of quoted text.
    static func renumber(_ sql: String, by offset: Int) -> String {
        guard offset > 0 else { return sql }
        var result = ""
        var characters = Array(sql)[...]
        var quote: Character?
        while let character = characters.popFirst() {
            if let open = quote {
                result.append(character)
                if character == open { quote = nil }
                continue
            }
            if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "$", let first = characters.first, first.isASCII, first.isNumber {
                var digits = ""
                while let next = characters.first, next.isASCII, next.isNumber {
                    digits.append(next)
                    characters.removeFirst()
                }
                result += "$\((Int(digits) ?? 0) + offset)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}

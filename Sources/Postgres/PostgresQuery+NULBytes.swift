import Foundation

/// Refusing text that libpq would cut short at a NUL byte.
///
/// libpq takes SQL text, text-format parameters, connection settings and identifiers as
/// C strings: it sends a text parameter up to its first NUL and ignores `paramLengths` for
/// it, so `"victim\u{0}@example.com"` would be stored as `victim`. Binary format is no way
/// out, since it would make the server read the bytes by the parameter's type (four of them
/// as an `int4`). Postgres itself never accepts a NUL in text (`0x00` is not a valid
/// character of any server encoding), so such a value is refused here, before anything is
/// sent, with the error the server gives for those bytes: SQLSTATE 22021.
extension PostgresQuery {
    /// Throws 22021 when the SQL text or a bound value holds a NUL byte.
    func refuseNULBytes(statementIndex: Int? = nil, file: String, line: Int) throws(PostgresError) {
        if sql.containsNULByte {
            throw .nulByte(in: "the query text", query: self, statementIndex: statementIndex, file: file, line: line)
        }
        if let position = binds.firstIndex(where: { $0?.containsNULByte ?? false }) {
            throw .nulByte(in: "parameter $\(position + 1)", query: self, statementIndex: statementIndex, file: file, line: line)
        }
    }
}

extension String {
    /// Whether the text holds a NUL byte: `memchr` over its UTF-8 (every statement's text and
    /// values are checked before each send, so this runs on every request).
    var containsNULByte: Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(start, 0, bytes.count) != nil
        } ?? utf8.contains(0)
    }
}

extension [[PostgresQuery]] {
    /// Throws 22021 for the first statement of any segment that holds a NUL byte (its
    /// `statementIndex` counts from the start of its segment, as pipeline errors do).
    func refuseNULBytes(file: String, line: Int) throws(PostgresError) {
        for segment in self {
            for (index, query) in segment.enumerated() {
                try query.refuseNULBytes(statementIndex: index, file: file, line: line)
            }
        }
    }
}

extension PostgresError {
    /// The server's answer to a NUL byte in text, given before libpq could truncate it.
    ///
    /// Its code is ``Code/server`` so callers treat it exactly like the server's own
    /// refusal (`catch SQLState.characterNotInRepertoire`, REST's 4xx mapping).
    static func nulByte(
        in place: String, query: PostgresQuery, statementIndex: Int? = nil, file: String, line: Int
    ) -> PostgresError {
        var error = PostgresError(
            code: .server, message: "invalid byte sequence for encoding \"UTF8\": 0x00 in \(place)",
            sqlState: .characterNotInRepertoire, query: query.sql, file: file, line: line)
        error.statementIndex = statementIndex
        return error
    }
}

/// One column of a result: its name and type.
public struct PostgresColumn: Hashable, Sendable {
    /// The column name as the query spelled it.
    public var name: String
    /// The column's type.
    public var dataType: PostgresDataType
}

/// The outcome of one statement, copied out of libpq (so it is a plain `Sendable` value).
///
/// Every value's text sits back to back in one byte buffer, so a result costs a few
/// allocations however many values it holds; decoding reads the bytes in place.
public struct PostgresResult: Sendable, RandomAccessCollection {
    /// The result's columns, in order.
    public let columns: [PostgresColumn]
    /// Rows affected by INSERT/UPDATE/DELETE (or returned by SELECT), when the command reports it.
    public let affectedRows: Int?
    /// The values' text (UTF-8), row by row, column by column.
    let bytes: [UInt8]
    /// Where each value (row-major) sits in `bytes`; a negative length is NULL.
    let spans: [ValueSpan]
    /// Rows in the result.
    let rowCount: Int
    /// Column name → index, built once per result.
    let columnIndex: [String: Int]

    struct ValueSpan: Sendable {
        var start: Int
        var length: Int32
    }

    init(columns: [PostgresColumn], bytes: [UInt8], spans: [ValueSpan], rowCount: Int, affectedRows: Int?) {
        self.columns = columns
        self.bytes = bytes
        self.spans = spans
        self.rowCount = rowCount
        self.affectedRows = affectedRows
        var index: [String: Int] = [:]
        for (position, column) in columns.enumerated() where index[column.name] == nil {
            index[column.name] = position
        }
        self.columnIndex = index
    }

    /// A result without rows (a command's, or an empty script's).
    static func empty(affectedRows: Int? = nil) -> PostgresResult {
        PostgresResult(columns: [], bytes: [], spans: [], rowCount: 0, affectedRows: affectedRows)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { rowCount }

    public subscript(position: Int) -> PostgresRow {
        PostgresRow(result: self, rowIndex: position)
    }

    /// Decodes every row as a tuple of column types, in column order.
    public func decode<each T: PostgresDecodable>(_ types: (repeat each T).Type) throws -> [(repeat each T)] {
        try map { try $0.decode((repeat each T).self) }
    }
}

/// One row of a ``PostgresResult``.
public struct PostgresRow: Sendable {
    let result: PostgresResult
    let rowIndex: Int

    /// The row's values by column as text, nil for NULL.
    public var rawValues: [String?] {
        result.columns.indices.map { column in text(at: column) }
    }

    /// Whether the value at `index` is NULL (false past the last column).
    public func isNull(at index: Int) -> Bool {
        index < result.columns.count && span(at: index).length < 0
    }

    private func span(at column: Int) -> PostgresResult.ValueSpan {
        result.spans[rowIndex * result.columns.count + column]
    }

    private func text(at column: Int) -> String? {
        let span = span(at: column)
        guard span.length >= 0 else { return nil }
        return String(decoding: result.bytes[span.start..<span.start + Int(span.length)], as: UTF8.self)
    }

    /// Decodes the column at `index`.
    public func decode<T: PostgresDecodable>(_ type: T.Type, at index: Int) throws -> T {
        guard index < result.columns.count else {
            throw PostgresDecodingError(
                column: "#\(index)", columnIndex: index, swiftType: "\(T.self)", postgresType: "none",
                reason: "the result has only \(result.columns.count) columns")
        }
        let column = result.columns[index]
        let span = span(at: index)
        do throws(PostgresDecodingFailure) {
            guard span.length >= 0 else { return try T.decodeNull() }
            return try result.bytes.withUnsafeBufferPointer { (all) throws(PostgresDecodingFailure) -> T in
                let value = UnsafeBufferPointer(rebasing: all[span.start..<span.start + Int(span.length)])
                return try T.decode(postgresBytes: value, type: column.dataType)
            }
        } catch {
            throw PostgresDecodingError(
                column: column.name, columnIndex: index, swiftType: "\(T.self)",
                postgresType: column.dataType.name, reason: error.reason)
        }
    }

    /// Decodes the column named `name`.
    public func decode<T: PostgresDecodable>(_ type: T.Type, column name: String) throws -> T {
        guard let index = result.columnIndex[name] else {
            throw PostgresDecodingError(
                column: name, columnIndex: -1, swiftType: "\(T.self)", postgresType: "none",
                reason: "no such column in the result")
        }
        return try decode(T.self, at: index)
    }

    /// Shorthand for ``decode(_:column:)`` with the type inferred.
    public subscript<T: PostgresDecodable>(_ name: String, as type: T.Type = T.self) -> T {
        get throws { try decode(T.self, column: name) }
    }

    /// Decodes the leading columns as a tuple, in order.
    public func decode<each T: PostgresDecodable>(_ types: (repeat each T).Type) throws -> (repeat each T) {
        var index = 0
        func next<V: PostgresDecodable>(_ type: V.Type) throws -> V {
            defer { index += 1 }
            return try decode(V.self, at: index)
        }
        return (repeat try next((each T).self))
    }
}

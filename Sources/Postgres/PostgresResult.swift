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
    @usableFromInline let bytes: [UInt8]
    /// Where each value (row-major) sits in `bytes`; a negative length is NULL.
    @usableFromInline let spans: [ValueSpan]
    /// Rows in the result.
    let rowCount: Int

    @usableFromInline struct ValueSpan: Sendable {
        @usableFromInline var start: Int
        @usableFromInline var length: Int32

        init(start: Int, length: Int32) {
            self.start = start
            self.length = length
        }
    }

    init(columns: [PostgresColumn], bytes: [UInt8], spans: [ValueSpan], rowCount: Int, affectedRows: Int?) {
        self.columns = columns
        self.bytes = bytes
        self.spans = spans
        self.rowCount = rowCount
        self.affectedRows = affectedRows
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
    @inlinable
    public func decode<each T: PostgresDecodable>(_ types: (repeat each T).Type) throws -> [(repeat each T)] {
        try map { try $0.decode((repeat each T).self) }
    }
}

/// One row of a ``PostgresResult``.
///
/// Decoding is `@inlinable` so a caller's module specializes it for its own column types:
/// reading a row then calls each type's decoder directly, with no generic dispatch per value.
public struct PostgresRow: Sendable {
    @usableFromInline let result: PostgresResult
    @usableFromInline let rowIndex: Int

    init(result: PostgresResult, rowIndex: Int) {
        self.result = result
        self.rowIndex = rowIndex
    }

    /// The row's values by column as text, nil for NULL.
    public var rawValues: [String?] {
        result.columns.indices.map { column in text(at: column) }
    }

    /// Whether the value at `index` is NULL (false past the last column).
    public func isNull(at index: Int) -> Bool {
        index < result.columns.count && span(at: index).length < 0
    }

    @usableFromInline func span(at column: Int) -> PostgresResult.ValueSpan {
        result.spans[rowIndex * result.columns.count + column]
    }

    private func text(at column: Int) -> String? {
        let span = span(at: column)
        guard span.length >= 0 else { return nil }
        return String(decoding: result.bytes[span.start..<span.start + Int(span.length)], as: UTF8.self)
    }

    /// The value at `index` as the bytes Postgres sent (its text, UTF-8), nil for NULL: a slice of
    /// the result's buffer, not a copy, for values that go out as they came (a JSON reply body).
    public func bytes(at index: Int) throws -> ArraySlice<UInt8>? {
        guard index < result.columns.count else { throw missingColumn(index, as: ArraySlice<UInt8>.self) }
        let span = span(at: index)
        guard span.length >= 0 else { return nil }
        return result.bytes[span.start..<span.start + Int(span.length)]
    }

    /// Decodes the column at `index`.
    @inlinable
    public func decode<T: PostgresDecodable>(_ type: T.Type, at index: Int) throws -> T {
        guard index < result.columns.count else { throw missingColumn(index, as: T.self) }
        let dataType = result.columns[index].dataType
        let span = span(at: index)
        do throws(PostgresDecodingFailure) {
            guard span.length >= 0 else { return try T.decodeNull() }
            return try result.bytes.withUnsafeBufferPointer { (all) throws(PostgresDecodingFailure) -> T in
                let value = UnsafeBufferPointer(rebasing: all[span.start..<span.start + Int(span.length)])
                return try T.decode(postgresBytes: value, type: dataType)
            }
        } catch {
            throw decodingError(error, at: index, as: T.self)
        }
    }

    @usableFromInline func missingColumn(_ index: Int, as type: Any.Type) -> PostgresDecodingError {
        PostgresDecodingError(
            column: "#\(index)", columnIndex: index, swiftType: "\(type)", postgresType: "none",
            reason: "the result has only \(result.columns.count) columns")
    }

    @usableFromInline func decodingError(_ failure: PostgresDecodingFailure, at index: Int, as type: Any.Type) -> PostgresDecodingError {
        let column = result.columns[index]
        return PostgresDecodingError(
            column: column.name, columnIndex: index, swiftType: "\(type)", postgresType: column.dataType.name, reason: failure.reason)
    }

    /// Decodes the column named `name`.
    public func decode<T: PostgresDecodable>(_ type: T.Type, column name: String) throws -> T {
        // A linear search: results have few columns, and a dictionary per result cost more than it saved.
        guard let index = result.columns.firstIndex(where: { $0.name == name }) else {
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
    @inlinable
    public func decode<each T: PostgresDecodable>(_ types: (repeat each T).Type) throws -> (repeat each T) {
        var index = 0
        func next<V: PostgresDecodable>(_ type: V.Type) throws -> V {
            defer { index += 1 }
            return try decode(V.self, at: index)
        }
        return (repeat try next((each T).self))
    }
}

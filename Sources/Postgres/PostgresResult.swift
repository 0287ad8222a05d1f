/// One column of a result: its name and type.
public struct PostgresColumn: Hashable, Sendable {
    /// The column name as the query spelled it.
    public var name: String
    /// The column's type.
    public var dataType: PostgresDataType
}

/// The outcome of one statement, copied out of libpq (so it is a plain `Sendable` value).
public struct PostgresResult: Sendable, RandomAccessCollection {
    /// The result's columns, in order.
    public let columns: [PostgresColumn]
    /// The rows' values in text format; nil is NULL.
    let values: [[String?]]
    /// Rows affected by INSERT/UPDATE/DELETE (or returned by SELECT), when the command reports it.
    public let affectedRows: Int?
    /// Column name → index, built once per result.
    let columnIndex: [String: Int]

    init(columns: [PostgresColumn], values: [[String?]], affectedRows: Int?) {
        self.columns = columns
        self.values = values
        self.affectedRows = affectedRows
        var index: [String: Int] = [:]
        for (position, column) in columns.enumerated() where index[column.name] == nil {
            index[column.name] = position
        }
        self.columnIndex = index
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { values.count }

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

    /// The row's values by column, nil for NULL.
    public var rawValues: [String?] { result.values[rowIndex] }

    /// Decodes the column at `index`.
    public func decode<T: PostgresDecodable>(_ type: T.Type, at index: Int) throws -> T {
        guard index < result.columns.count else {
            throw PostgresDecodingError(
                column: "#\(index)", columnIndex: index, swiftType: "\(T.self)", postgresType: "none",
                reason: "the result has only \(result.columns.count) columns")
        }
        let column = result.columns[index]
        do {
            if let text = result.values[rowIndex][index] {
                return try T.decode(postgresText: text, type: column.dataType)
            }
            return try T.decodeNull()
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

/// A JSON request body checked the way PostgREST checks it before any SQL: it must parse,
/// be an object or an array of objects with the same keys (unless `columns=` names them).
struct RequestBody: Sendable {
    /// The body as sent; it reaches Postgres as one parameter.
    var json: String
    /// A single object rather than an array.
    var isObject: Bool
    /// The keys the statement uses.
    var keys: [String]

    /// A write's body as sent: JSON, or a form or CSV turned into JSON as PostgREST does;
    /// any other type is 400 PGRST102.
    init(text: String, mediaType: BodyMediaType, columns: [String]?) throws(RESTError) {
        switch mediaType {
        case .json: try self.init(json: text, columns: columns)
        case .formURLEncoded: try self.init(json: try BodyConversion.formObject(text), columns: columns)
        case .csv: try self.init(json: try BodyConversion.csvArray(text), columns: columns)
        default: throw .invalidBody(.unacceptableContentType(mediaType.name))
        }
    }

    init(json: String, columns: [String]?) throws(RESTError) {
        self.json = json
        switch JSONBodyShape(json) {
        case .object(let objectKeys):
            isObject = true
            keys = columns ?? objectKeys.sorted()
        case .array(let elements):
            isObject = false
            let objects = elements.compactMap { $0 }
            guard objects.count == elements.count else { throw .invalidBody(.mismatchedKeys) }
            if let columns {
                keys = columns
            } else {
                let first = objects.first ?? []
                guard objects.allSatisfy({ $0 == first }) else { throw .invalidBody(.mismatchedKeys) }
                keys = first.sorted()
            }
        case .scalar, nil:
            throw .invalidBody(.emptyOrInvalidJSON)
        }
    }

    /// The named columns of `table`, or 400 PGRST204 for the first unknown key.
    func columns(of table: TableInfo) throws(RESTError) -> [ColumnInfo] {
        try keys.map { (key: String) throws(RESTError) -> ColumnInfo in
            guard let column = table.column(key) else {
                throw .columnNotFound(key, table: table.name)
            }
            return column
        }
    }
}

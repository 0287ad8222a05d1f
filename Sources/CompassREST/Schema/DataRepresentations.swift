/// PostgREST's data representations: implicit casts, through a function, between a domain and
/// json or text. A column of such a domain is answered through its `domain -> json` cast, a
/// filter's value reaches it through `text -> domain`, a body's value through `json -> domain`.
///
/// ```sql
/// CREATE CAST (public.color AS json) WITH FUNCTION public.json(public.color) AS IMPLICIT;
/// ```
public struct DataRepresentations: Sendable, Hashable {
    /// `domain -> json`: how replies show the value.
    public var toJSON: CastFunction?
    /// `text -> domain`: how a filter's value is read.
    public var fromText: CastFunction?
    /// `json -> domain`: how a body's value is read.
    public var fromJSON: CastFunction?

    public init(toJSON: CastFunction? = nil, fromText: CastFunction? = nil, fromJSON: CastFunction? = nil) {
        self.toJSON = toJSON
        self.fromText = fromText
        self.fromJSON = fromJSON
    }
}

/// The function of a cast, by schema and name (its argument's type picks the overload).
public struct CastFunction: Sendable, Hashable {
    public var schema: String
    public var name: String
}

/// One cast of ``SchemaCache/representationsQuery()``: source and target as `format_type` prints them.
struct CatalogCast: Decodable {
    var source: String
    var target: String
    var schema: String
    var function: String
}

extension SchemaCache {
    /// Each column's representations, when its type is a domain with such casts.
    static func addRepresentations(_ casts: [CatalogCast], to tables: inout [String: TableInfo]) {
        guard !casts.isEmpty else { return }
        var byType: [String: DataRepresentations] = [:]
        for cast in casts {
            let function = CastFunction(schema: cast.schema, name: cast.function)
            switch (cast.source, cast.target) {
            case (_, "json"): byType[cast.source, default: DataRepresentations()].toJSON = function
            case ("text", _): byType[cast.target, default: DataRepresentations()].fromText = function
            case ("json", _): byType[cast.target, default: DataRepresentations()].fromJSON = function
            default: continue
            }
        }
        for name in tables.keys {
            for index in tables[name]!.columns.indices {
                if let representations = byType[tables[name]!.columns[index].type] {
                    tables[name]!.columns[index].representations = representations
                }
            }
        }
    }
}

extension SchemaCache {
    /// The type under each domain column, through domains of domains (at most 8 levels).
    static func addBaseTypes(domains: [[String]], to tables: inout [String: TableInfo]) {
        guard !domains.isEmpty else { return }
        let bases = Dictionary(domains.map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
        for name in tables.keys {
            for index in tables[name]!.columns.indices {
                var type = tables[name]!.columns[index].type
                for _ in 0..<8 {
                    guard let base = bases[type] else { break }
                    type = base
                }
                if type != tables[name]!.columns[index].type { tables[name]!.columns[index].baseType = type }
            }
        }
    }
}

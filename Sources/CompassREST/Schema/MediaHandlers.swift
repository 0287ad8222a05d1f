/// How a reply can be sent in a media type the built-in JSON and CSV bodies do not cover, as
/// PostgREST's media type handlers: a domain named after the media type (`"image/png"`,
/// `"text/tab-separated-values"`, `"*/*"`), returned by an aggregate or a function of the schema.
public struct MediaHandler: Sendable, Hashable {
    /// Where the body comes from.
    public enum Source: Sendable, Hashable {
        /// An aggregate of the schema over the reply's rows: over one table's or view's rows
        /// (`rowType`, which the rows are cast to), or over any rows (`anyelement`, no cast).
        case aggregate(name: String, rowType: String?)
        /// The value a function returns, already of the media type's domain.
        case returnedValue
        /// PostgREST's built-in `application/geo+json`: a FeatureCollection of PostGIS's
        /// `ST_AsGeoJSON(record)` (in `schema`) of each row, where PostGIS is installed.
        case geoJSON(schema: String)
    }

    public var source: Source
    /// The media type the reply is sent as: the domain's name, lower-cased; `*/*` is sent as
    /// `application/octet-stream` (a function may still name its own with `response.headers`).
    public var mediaType: String
    /// Whether the domain is over `bytea`: the body is bytes, not text.
    public var isBinary: Bool
}

/// The schema's media type handlers, keyed as PostgREST looks them up: by the relation (or
/// function) a request reads and a media type, or by a media type alone for handlers over any rows.
public struct MediaHandlers: Sendable {
    /// What a request reads: rows of a table or view, or the value a function returns.
    public enum Target: Sendable, Hashable {
        case relation(String)
        case function(String)
    }

    struct Key: Hashable {
        /// nil for handlers over any rows.
        var target: Target?
        var mediaType: String
    }

    private var handlers: [Key: MediaHandler] = [:]

    public init() {}

    /// Whether the schema has none (then only the built-in bodies are served).
    public var isEmpty: Bool { handlers.isEmpty }

    /// The handler for `mediaType` on `target`, in PostgREST's order: a handler of the target for
    /// every media type (`*/*`), then one for this media type, then one over any rows. Handlers of
    /// the target apply only to a reply of its own rows (`target` nil otherwise: `select=` chose columns).
    public func handler(for mediaType: String, target: Target?) -> MediaHandler? {
        if let target {
            if let handler = handlers[Key(target: target, mediaType: "*/*")] { return handler }
            if let handler = handlers[Key(target: target, mediaType: mediaType)] { return handler }
        }
        return handlers[Key(target: nil, mediaType: mediaType)]
    }

    /// PostgREST's built-in GeoJSON over any rows, through PostGIS's `ST_AsGeoJSON(record)` in
    /// `schema`, unless a handler of the schema already answers `application/geo+json`.
    mutating func addGeoJSON(functionSchema schema: String) {
        add(MediaHandler(source: .geoJSON(schema: schema), mediaType: "application/geo+json", isBinary: false), for: "application/geo+json", target: nil)
    }

    /// Adds `handler` for `mediaType` (the domain's own name, lower-cased) on `target`; the first one found for a key stays.
    mutating func add(_ handler: MediaHandler, for mediaType: String, target: Target?) {
        let key = Key(target: target, mediaType: mediaType)
        if handlers[key] == nil { handlers[key] = handler }
    }
}

/// One row of ``SchemaCache/mediaHandlersQuery(_:)``.
struct CatalogMediaHandler: Decodable {
    /// The aggregate's name; nil for a function's own return value.
    var aggregate: String?
    /// The relation an aggregate reads the rows of (nil: any rows), or the function returning the domain.
    var target: String?
    var mediaType: String
    var isBinary: Bool
}

extension MediaHandlers {
    init(_ rows: [CatalogMediaHandler]) {
        for row in rows {
            let sentAs = row.mediaType == "*/*" ? "application/octet-stream" : row.mediaType
            if let aggregate = row.aggregate {
                let handler = MediaHandler(source: .aggregate(name: aggregate, rowType: row.target), mediaType: sentAs, isBinary: row.isBinary)
                add(handler, for: row.mediaType, target: row.target.map(Target.relation))
            } else {
                let handler = MediaHandler(source: .returnedValue, mediaType: sentAs, isBinary: row.isBinary)
                add(handler, for: row.mediaType, target: row.target.map(Target.function))
            }
        }
    }
}

/// What a request body is, by its `Content-Type`, as PostgREST reads it: JSON when the header
/// is missing; forms and CSV become JSON before planning; text, XML and bytes only reach a
/// function's single unnamed parameter of that type.
///
/// ```swift
/// BodyMediaType(contentType: "application/x-www-form-urlencoded; charset=utf-8")   // .formURLEncoded
/// ```
enum BodyMediaType: Sendable, Hashable {
    case json
    case formURLEncoded
    case csv
    /// `text/plain`: a function's single unnamed `text` parameter.
    case text
    /// `text/xml`: a function's single unnamed `xml` parameter.
    case xml
    /// `application/octet-stream`: a function's single unnamed `bytea` parameter.
    case bytes
    /// Anything else, as sent (lower-cased, without parameters).
    case other(String)

    /// Whether the body is text (so must be UTF-8) rather than bytes passed on as they are.
    var isText: Bool {
        switch self {
        case .json, .formURLEncoded, .csv, .text, .xml: true
        case .bytes, .other: false
        }
    }

    init(contentType: String?) {
        let type = (contentType ?? "").split(separator: ";", maxSplits: 1).first.map { String($0).trimmingSpaces.lowercased() } ?? ""
        switch type {
        case "", "application/json", "application/vnd.pgrst.object+json", "application/vnd.pgrst.object",
            "application/vnd.pgrst.array+json", "application/vnd.pgrst.array":
            self = .json
        case "application/x-www-form-urlencoded": self = .formURLEncoded
        case "text/csv": self = .csv
        case "text/plain": self = .text
        case "text/xml": self = .xml
        case "application/octet-stream": self = .bytes
        default: self = .other(type)
        }
    }

    /// The type as a media type name (for `Content-Type not acceptable: …`).
    var name: String {
        switch self {
        case .json: "application/json"
        case .formURLEncoded: "application/x-www-form-urlencoded"
        case .csv: "text/csv"
        case .text: "text/plain"
        case .xml: "text/xml"
        case .bytes: "application/octet-stream"
        case .other(let type): type
        }
    }

    /// The type of the single unnamed parameter a raw body of this kind is passed to, if any.
    var rawParameterType: String? {
        switch self {
        case .text: "text"
        case .xml: "xml"
        case .bytes: "bytea"
        default: nil
        }
    }
}

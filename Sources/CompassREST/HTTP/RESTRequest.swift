import CompassHTTP
import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird

/// What every REST route reads from a request before planning: scope, preferences, the
/// negotiated media type and the query parameters.
struct RESTRequest: Sendable {
    var method: RESTMethod
    var scope: RequestScope
    var preferences: Preferences
    /// `Accept`, most preferred first; ``mediaType(handlers:target:allowsPlans:)`` negotiates it once the request is planned.
    var accept: [MediaRange]
    var parameters: QueryParameters
    /// The `Range` header (GET only, as PostgREST honours it).
    var rangeHeader: String?
    /// What the body is, by `Content-Type`.
    var bodyMediaType: BodyMediaType
    /// The query as PostgREST's `Content-Location` repeats it: parameters sorted by name, encoded.
    var canonicalQuery: String
    /// Whether the reply carries `Content-Profile` (a profile was asked for, or several schemas are exposed).
    var namesProfile: Bool
    /// `Server-Timing`'s phases, when the setting is on (the executor marks plan and transaction).
    var timing: ServerTiming?

    /// The query parameter Supabase's gateway reads the API key from, and removes before
    /// PostgREST sees the query (`hide_credentials`): never a filter or an RPC argument.
    static let gatewayKeyParameter = "apikey"

    init(
        request: Request, method: RESTMethod, path: String, claims: AccessClaims, configuration: RESTConfiguration, isRPC: Bool
    ) throws(RESTError) {
        self.method = method
        let profile = try Self.profile(of: request, isRead: method.isRead, configuration: configuration)
        let schema = profile ?? configuration.schema
        // The reply names its schema when the request chose it or could have.
        namesProfile = profile != nil || configuration.schemas.count > 1
        preferences = try Preferences(headerValues: request.headers[values: HTTPField.Name("Prefer")!])
        if !configuration.transactionEnd.allowsOverride { preferences.transaction = nil }
        accept = MediaRange.ordered(request.headers[.accept])
        if let bad = QueryString.invalidUTF8(in: request.uri.query) { throw .invalidUTF8(bad, in: "the query string") }
        let pairs = QueryString.pairs(request.uri.query).filter { $0.name != Self.gatewayKeyParameter }
        canonicalQuery = Self.canonical(pairs)
        parameters = try QueryParameters(
            pairs: pairs,
            isRPCRead: isRPC && method.isRead, maximumEmbedDepth: configuration.maximumEmbedDepth)
        rangeHeader = method == .get ? request.headers[HTTPField.Name("Range")!] : nil
        bodyMediaType = BodyMediaType(contentType: request.headers[.contentType])
        scope = Self.scope(
            of: request, method: method, path: path, claims: claims, schema: schema, timeZone: preferences.timeZone,
            configuration: configuration)
    }

    /// Who `request` runs as and what SQL sees of it (``RequestScope``), in `schema`.
    static func scope(
        of request: Request, method: RESTMethod, path: String, claims: AccessClaims, schema: String, timeZone: String? = nil,
        configuration: RESTConfiguration
    ) -> RequestScope {
        var headers: [String: String] = [:]
        // HTTP/1's Host is the request's authority here, no longer a field; PostgREST lists it.
        if let host = request.head.authority { headers["host"] = host }
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        var scope = RequestScope(
            role: claims.databaseRole, claimsJSON: claims.claimsJSON, method: method.rawValue, path: path,
            headersJSON: object(headers), cookiesJSON: object(cookies(request.headers[.cookie])), schema: schema, timeZone: timeZone)
        scope.refusesSuperuser = claims.namesOtherRole
        scope.extraSearchPath = configuration.extraSearchPath
        scope.appSettings = configuration.appSettings
        return scope
    }

    /// The representation to reply in, negotiated as PostgREST does once a request is planned:
    /// `target` is the table, view or function whose rows the reply holds; its own handlers apply
    /// only when `select=` is the default `*`.
    func mediaType(handlers: MediaHandlers, target: MediaHandlers.Target, allowsPlans: Bool) throws(RESTError) -> ReplyMediaType {
        let select = parameters.select
        let isDefaultSelect =
            if select.count == 1, case .column(let column) = select[0] { column.field.name == "*" } else { false }
        return try ReplyMediaType.negotiate(accept, handlers: handlers, target: isDefaultSelect ? target : nil, allowsPlans: allowsPlans)
    }

    /// The schema the request names, PostgREST's profiles: reads with Accept-Profile, writes and
    /// calls with Content-Profile; nil for the default one, 406 PGRST106 for one not exposed.
    static func profile(of request: Request, isRead: Bool, configuration: RESTConfiguration) throws(RESTError) -> String? {
        let profile = request.headers[HTTPField.Name(isRead ? "Accept-Profile" : "Content-Profile")!]
        if let profile, !configuration.schemas.contains(profile) {
            throw .schemaNotExposed(profile, exposed: configuration.schemas)
        }
        return profile
    }

    /// The top-level row window.
    func range() throws(RESTError) -> RowRange {
        try RowRange(offset: parameters.offsets[[]], limit: parameters.limits[[]], rangeHeader: rangeHeader)
    }

    /// `b=2&a=1` as `a=1&b=2`: sorted by name (a stable sort), every byte but `A-Z a-z 0-9 - _ . ~` escaped.
    static func canonical(_ pairs: [(name: String, value: String?)]) -> String {
        let sorted = pairs.enumerated().sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }
        return encodedQuery(sorted.map(\.element))
    }

    /// `name=value&…` in the given order, each byte but the unreserved ones percent-encoded.
    static func encodedQuery(_ pairs: [(name: String, value: String?)]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pairs.reduce(0) { $0 + $1.name.utf8.count + ($1.value?.utf8.count ?? 0) + 2 })
        func append(encoded text: String) {
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                    bytes.append(byte)
                default:
                    bytes.append(UInt8(ascii: "%"))
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0x0F)])
                }
            }
        }
        for (index, pair) in pairs.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "&")) }
            append(encoded: pair.name)
            bytes.append(UInt8(ascii: "="))
            append(encoded: pair.value ?? "")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `a=1; b=2` as a dictionary.
    static func cookies(_ header: String?) -> [String: String] {
        var cookies: [String: String] = [:]
        for part in (header ?? "").split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2 { cookies[pair[0]] = pair[1] }
        }
        return cookies
    }

    /// A flat JSON object of strings.
    static func object(_ fields: [String: String]) -> String {
        var object = "{"
        // Room for every field at once: the text would otherwise be copied as it grows.
        object.reserveCapacity(fields.reduce(2) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 })
        for (index, field) in fields.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { object += "," }
            JSONText.appendQuoted(field.key, to: &object)
            object += ":"
            JSONText.appendQuoted(field.value, to: &object)
        }
        return object + "}"
    }
}

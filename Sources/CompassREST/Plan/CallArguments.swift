import Foundation

/// A function call's arguments as the request carries them, before an overload is chosen:
/// a JSON body (also what a CSV body becomes), name/value pairs (GET's query parameters or a
/// form), or a text, XML or binary body for a single unnamed parameter of that type.
enum CallArguments: Sendable {
    /// An object, or an array whose first object is the arguments; `keys` are its keys (or
    /// `columns=`). `fromCSV` when it was a CSV body: never passed whole to a json parameter.
    case json(text: String, keys: [String], isArray: Bool, fromCSV: Bool = false)
    /// Pairs in order, repeated names kept (a `VARIADIC` parameter takes them all, any other the last).
    case pairs([(name: String, value: String)])
    /// The whole body, for a single unnamed parameter of the type ``BodyMediaType/rawParameterType``.
    case raw(BodyMediaType, bytes: [UInt8])

    /// A POST body of `mediaType` (`columns=` names the keys of a JSON one), as PostgREST reads it.
    init(post bytes: [UInt8], mediaType: BodyMediaType, columns: [String]?) throws(RESTError) {
        if mediaType.isText, let bad = UTF8Validation.firstInvalidSequence(bytes) {
            throw .invalidUTF8(bad, in: "the request body")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        switch mediaType {
        case .json:
            // Only a body with no bytes at all is "no arguments" (PostgREST): whitespace is invalid JSON.
            try self.init(json: text.isEmpty ? "{}" : text, columns: columns)
        case .csv:
            try self.init(json: try BodyConversion.csvArray(text), columns: columns)
            if case .json(let text, let keys, let isArray, _) = self { self = .json(text: text, keys: keys, isArray: isArray, fromCSV: true) }
        case .formURLEncoded:
            self = .pairs(try BodyConversion.formPairs(text))
        case .text, .xml, .bytes:
            self = .raw(mediaType, bytes: bytes)
        case .other:
            throw .invalidBody(.unacceptableContentType(mediaType.name))
        }
    }

    private init(json text: String, columns: [String]?) throws(RESTError) {
        switch JSONBodyShape(text) {
        case nil:
            throw .invalidBody(.emptyOrInvalidJSON)
        case .object(let keys):
            self = .json(text: text, keys: columns ?? keys.sorted(), isArray: false)
        case .array(let elements):
            let objects = elements.compactMap { $0 }
            let first = objects.first ?? []
            guard columns != nil || (objects.count == elements.count && objects.allSatisfy({ $0 == first })) else {
                throw .invalidBody(.mismatchedKeys)
            }
            self = .json(text: text, keys: columns ?? first.sorted(), isArray: true)
        case .scalar:
            // A scalar is read as an empty array: no arguments.
            self = .json(text: "[]", keys: columns ?? [], isArray: true)
        }
    }

    /// The argument names the overload must take.
    var keys: [String] {
        switch self {
        case .json(_, let keys, _, _): keys
        case .pairs(let pairs): Set(pairs.map(\.name)).sorted()
        case .raw: []
        }
    }

    /// For pairs: one JSON object, each `VARIADIC` parameter's values as an array, any other's last value.
    func object(for function: FunctionInfo) -> String {
        guard case .pairs(let pairs) = self else { return "{}" }
        let variadic = Set(function.parameters.filter(\.isVariadic).map(\.name))
        var values: [String: [String]] = [:]
        var order: [String] = []
        for (name, value) in pairs {
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(value)
        }
        let members = order.map { name in
            let all = values[name]!
            let value = variadic.contains(name) ? "[" + all.map(JSONText.quoted).joined(separator: ",") + "]" : JSONText.quoted(all.last!)
            return JSONText.quoted(name) + ":" + value
        }
        return "{" + members.joined(separator: ",") + "}"
    }
}

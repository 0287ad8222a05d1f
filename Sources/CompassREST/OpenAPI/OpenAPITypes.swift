import Foundation

/// Postgres types as Swagger 2.0 types and formats, as PostgREST maps them: the type says what
/// JSON carries the value, the format names the Postgres type.
enum OpenAPITypes {
    /// `string`, `boolean`, `integer`, `number`, `array`; nil for json/jsonb (any value).
    static func swaggerType(_ type: String) -> String? {
        switch type {
        case "character varying", "character", "text": "string"
        case "boolean": "boolean"
        case "smallint", "integer", "bigint": "integer"
        case "numeric", "real", "double precision": "number"
        case "json", "jsonb": nil
        default: type.hasSuffix("[]") ? "array" : "string"
        }
    }

    /// `int32`/`int64` for integers, else the Postgres type itself.
    static func format(_ type: String) -> String {
        switch type {
        case "smallint", "integer": "int32"
        case "bigint": "int64"
        default: type
        }
    }

    /// An array type's element type (`text[]` → `text`).
    static func elementType(_ type: String) -> String {
        type.hasSuffix("[]") ? String(type.dropLast(2)) : type
    }

    /// `items` of an array property (`{"type": "string"}`; `{}` for json elements), nil otherwise.
    static func items(_ type: String) -> OpenAPIJSON? {
        guard swaggerType(type) == "array" else { return nil }
        return .object([("type", swaggerType(elementType(type)).map(OpenAPIJSON.string))])
    }

    /// A column default as a JSON value, when it is a literal: `'abc'::text` is `"abc"`, `42` is 42,
    /// `false` is false. An expression (`now()`, `gen_random_uuid()`, `nextval(…)`) is left out:
    /// PostgREST shows one on a text-like column as a string, which the column's format then
    /// contradicts (`"gen_random_uuid()"` is no uuid) and validators refuse the document.
    static func defaultValue(_ expression: String, type: String) -> OpenAPIJSON? {
        var text = expression
        if swaggerType(type) == "string" {
            if text.hasSuffix("::" + type) {
                text = String(text.dropLast(type.count + 2))
            } else if text.hasPrefix("'"), let cast = text.range(of: "'::", options: .backwards), !text[cast.upperBound...].contains("'") {
                text = String(text[..<text.index(after: cast.lowerBound)])
            }
            guard text.hasPrefix("'"), text.hasSuffix("'"), text.count >= 2 else { return nil }
            return .string(String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'"))
        }
        guard let data = text.data(using: .utf8),
            (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
        else { return nil }
        return .raw(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

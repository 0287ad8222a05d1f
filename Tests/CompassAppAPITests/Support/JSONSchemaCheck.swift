import Foundation

/// Checks a JSON value against the subset of JSON Schema the OpenAPI document uses:
/// `$ref`, `type` (one or a list), `required`, `properties`, `items`, `enum`, `const`, `anyOf`.
struct JSONSchemaCheck {
    /// The whole OpenAPI document, for resolving `#/components/…` references.
    let document: [String: Any]

    /// Problems found, each with the JSON path; empty when the value conforms.
    func problems(_ value: Any, against schema: [String: Any], at path: String = "$") -> [String] {
        if let ref = schema["$ref"] as? String {
            guard let target = resolve(ref) else { return ["\(path): unresolvable \(ref)"] }
            return problems(value, against: target, at: path)
        }
        if let options = schema["anyOf"] as? [[String: Any]] {
            return options.contains { problems(value, against: $0, at: path).isEmpty } ? [] : ["\(path): matches no anyOf option"]
        }
        var found: [String] = []
        if let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map({ [$0] }),
            !types.contains(where: { Self.value(value, is: $0) })
        {
            return ["\(path): \(Self.describe(value)) is not \(types.joined(separator: " or "))"]
        }
        if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { Self.equal($0, value) }) {
            found.append("\(path): \(Self.describe(value)) is not in the enum")
        }
        if let constant = schema["const"], !Self.equal(constant, value) { found.append("\(path): not the const") }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                found.append("\(path): missing required \(key)")
            }
            for (key, propertySchema) in schema["properties"] as? [String: [String: Any]] ?? [:] {
                if let property = object[key] { found += problems(property, against: propertySchema, at: "\(path).\(key)") }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, item) in array.enumerated() { found += problems(item, against: items, at: "\(path)[\(index)]") }
        }
        return found
    }

    /// `#/components/schemas/Name` (or any `#/a/b` pointer).
    func resolve(_ ref: String) -> [String: Any]? {
        guard ref.hasPrefix("#/") else { return nil }
        var node: Any = document
        for part in ref.dropFirst(2).split(separator: "/") {
            guard let next = (node as? [String: Any])?[String(part)] else { return nil }
            node = next
        }
        return node as? [String: Any]
    }

    static func value(_ value: Any, is type: String) -> Bool {
        let number = value as? NSNumber
        // JSONSerialization makes every JSON boolean an NSNumber of type char ("c"), and no number one.
        let isBool = number.map { String(cString: $0.objCType) == "c" } ?? false
        switch type {
        case "null": return value is NSNull
        case "boolean": return isBool
        case "integer": return !isBool && number.map { $0.doubleValue.rounded() == $0.doubleValue } == true && !(value is String)
        case "number": return !isBool && number != nil && !(value is String)
        case "string": return value is String
        case "array": return value is [Any]
        case "object": return value is [String: Any]
        default: return false
        }
    }

    static func equal(_ a: Any, _ b: Any) -> Bool {
        if a is NSNull || b is NSNull { return a is NSNull && b is NSNull }
        return (a as? NSObject)?.isEqual(b) ?? false
    }

    static func describe(_ value: Any) -> String {
        let text = String(describing: value)
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}

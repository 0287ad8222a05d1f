import CompassDomain

/// A JSON request body of `/auth/v1`, checked for NUL characters before any of it reaches SQL.
///
/// JSON may carry `\u0000`, but Postgres stores no NUL in `text` or `jsonb`: the client would
/// refuse the value (SQLSTATE 22021) and the reply would be a 500. Checking each field first
/// gives a 400 that names the field, never its value (it may be a password).
protocol AuthRequestBody: Decodable {
    /// Every field that reaches SQL, by its JSON name; strings as `.string`.
    var textFields: KeyValuePairs<String, JSONValue?> { get }
}

extension AuthRequestBody {
    /// Throws 400 `validation_failed` naming the first field that holds U+0000.
    func refuseNULCharacters() throws(AuthError) {
        for (name, value) in textFields where value?.containsNULCharacter == true {
            throw .nulCharacter(in: name)
        }
    }
}

extension JSONValue {
    /// Whether any string or object key inside holds U+0000.
    var containsNULCharacter: Bool {
        switch self {
        case .string(let text): text.utf8.contains(0)
        case .array(let items): items.contains { $0.containsNULCharacter }
        case .object(let fields): fields.contains { $0.key.utf8.contains(0) || $0.value.containsNULCharacter }
        case .null, .bool, .integer, .double: false
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird

/// The reply a function shaped with `set_config('response.headers', '[{"Name": "value"}, …]', true)`
/// and `set_config('response.status', '201', true)`, as PostgREST applies them: headers added
/// (repeats kept, as for `Set-Cookie`; one of the reply's own names replaces it), the status replaced; a malformed setting is the server's
/// error (500 PGRST111/PGRST112), and a write that made it is rolled back.
struct ResponseSettings: Sendable {
    var headers: [(name: String, value: String)] = []
    var status: Int?

    init() {}

    /// The settings a statement left (`headers` and `status` as text, nil when unset), or
    /// PostgREST's refusal for malformed ones.
    init(headers headerText: String?, status statusText: String?) throws(RESTError) {
        if let text = headerText, !text.isEmpty {
            guard let array = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [Any] else { throw .malformedResponseHeaders }
            for element in array {
                guard let object = element as? [String: Any], object.count == 1, let (name, value) = object.first,
                    let text = value as? String, HTTPField.Name(name) != nil
                else { throw .malformedResponseHeaders }
                headers.append((name, text))
            }
        }
        if let text = statusText, !text.isEmpty {
            guard let code = Int(text.trimmingSpaces), (100...599).contains(code) else { throw .malformedResponseStatus }
            status = code
        }
    }

    /// `response` with the settings applied: a header the function set replaces the reply's own
    /// of that name (its `Content-Type`, say), as in PostgREST.
    func applied(to response: Response) -> Response {
        var response = response
        for name in Set(headers.map { $0.name.lowercased() }) {
            if let field = HTTPField.Name(name) { response.headers[values: field] = [] }
        }
        for (name, value) in headers {
            if let field = HTTPField.Name(name) { response.headers.append(HTTPField(name: field, value: value)) }
        }
        if let status { response.status = HTTPResponse.Status(code: status) }
        return response
    }
}

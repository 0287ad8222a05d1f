import CompassHTTP
import HTTPTypes
import Hummingbird

/// Responses in PostgREST's forms.
enum RESTReply {
    static let json = "application/json; charset=utf-8"
    static let singleObject = "application/vnd.pgrst.object+json; charset=utf-8"

    /// A body Postgres already rendered as JSON (or none), with the given headers.
    static func body(status: Int, _ body: String?, contentType: String = json, headers: [String: String] = [:]) -> Response {
        var fields = HTTPFields()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        guard let body else { return Response(status: .init(code: status), headers: fields) }
        return JSONReply.text(status: .init(code: status), body, headers: fields, contentType: contentType)
    }

    /// An error: its status, its headers, and the four-key body.
    static func error(_ error: RESTError) -> Response {
        body(status: error.status, error.body, headers: error.headers)
    }
}

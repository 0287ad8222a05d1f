import Foundation
import Postgres

/// The errors a function raises to shape the reply itself, as PostgREST reads them:
/// `RAISE SQLSTATE 'PT402'` answers status 402, and `RAISE SQLSTATE 'PGRST' USING MESSAGE =
/// '{"code","message","details","hint"}', DETAIL = '{"status","status_text","headers"}'`
/// answers exactly that status, body and headers.
extension RESTError {
    /// The reply a raised `PTnnn` or `PGRST` asks for; nil for any other SQLSTATE.
    static func raised(state: String, message: String, details: String?, hint: String?) -> RESTError? {
        if state.hasPrefix("PT") {
            let status = Int(state.dropFirst(2)).flatMap { (100...599).contains($0) ? $0 : nil } ?? 500
            return RESTError(status: status, code: state, message: message, details: details, hint: hint)
        }
        guard state == "PGRST" else { return nil }
        guard let body = object(message), let code = body["code"] as? String, let text = body["message"] as? String else {
            return raiseParseFailure(
                details: "Invalid JSON value for MESSAGE: '\(message)'",
                hint: "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.")
        }
        guard let details else {
            return raiseParseFailure(details: "DETAIL is missing in the RAISE statement", hint: detailHint)
        }
        guard let reply = object(details), let status = reply["status"] as? Int, (100...599).contains(status),
            let headers = reply["headers"] as? [String: Any]
        else {
            return raiseParseFailure(details: "Invalid JSON value for DETAIL: '\(details)'", hint: detailHint)
        }
        var error = RESTError(
            status: status, code: code, message: text, details: body["details"] as? String, hint: body["hint"] as? String)
        for (name, value) in headers {
            if let value = value as? String { error.headers[name] = value }
        }
        error.statusText = reply["status_text"] as? String
        return error
    }

    private static let detailHint =
        "DETAIL must be a JSON object with obligatory keys: 'status', 'headers' and optional key: 'status_text'."

    /// PGRST121, 500: a `RAISE SQLSTATE 'PGRST'` whose MESSAGE or DETAIL is not the JSON it must be.
    private static func raiseParseFailure(details: String, hint: String) -> RESTError {
        RESTError(
            status: 500, code: "PGRST121", message: "Could not parse JSON in the \"RAISE SQLSTATE 'PGRST'\" error",
            details: details, hint: hint)
    }

    private static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}

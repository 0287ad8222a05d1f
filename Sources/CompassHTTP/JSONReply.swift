import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// JSON responses: bodies already serialised (by Postgres or an encoder) or small objects.
public enum JSONReply {
    /// `body` as `application/json` with `status` and any extra headers.
    public static func text(
        status: HTTPResponse.Status = .ok, _ body: String, headers: HTTPFields = [:],
        contentType: String = "application/json; charset=utf-8"
    ) -> Response {
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// An `Encodable` value encoded with `encoder` (sorted keys, unescaped slashes by default).
    public static func encoded(
        status: HTTPResponse.Status = .ok, _ value: some Encodable, headers: HTTPFields = [:],
        encoder: JSONEncoder = JSONReply.encoder
    ) throws -> Response {
        let data = try encoder.encode(value)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A flat object of strings (gateway and error replies).
    public static func object(status: HTTPResponse.Status, _ fields: [String: String], headers: HTTPFields = [:]) -> Response {
        // Encoding a [String: String] cannot fail.
        (try? encoded(status: status, fields, headers: headers))
            ?? text(status: .internalServerError, #"{"message":"internal error"}"#)
    }

    /// `{"error": reason}`, the body of a refused WebSocket upgrade.
    public static func errorBody(_ reason: String) -> String {
        let data = (try? encoder.encode(["error": reason])) ?? Data(#"{"error":"refused"}"#.utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The encoder replies use: sorted keys, `/` unescaped.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

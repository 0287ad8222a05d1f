import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird

/// The gateway check Supabase runs before `/auth/v1`, `/rest/v1` and `/api`, as middleware on
/// each API's route group: the request must carry an `apikey` (header or query parameter) that
/// is a JWT signed with the project secret. The verified key goes into ``CompassRequestContext/apiKey``.
///
/// ```swift
/// router.group("/rest/v1").add(middleware: APIKeyMiddleware(verifier: context.verifier))
/// ```
/// The bearer token (the user's session) is each API's own to verify, in its own error shape.
public struct APIKeyMiddleware: RouterMiddleware {
    public typealias Context = CompassRequestContext
    let verifier: AccessTokenVerifier

    public init(verifier: AccessTokenVerifier) {
        self.verifier = verifier
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.apiKey = try await check(request)
        return try await next(request, context)
    }

    /// The presented key, verified.
    public func check(_ request: Request) async throws(APIKeyError) -> APIKey {
        guard let token = request.apiKey else { throw .missing }
        do {
            return APIKey(token: token, claims: try await verifier.verify(token))
        } catch {
            throw .invalid
        }
    }
}

/// A verified API key (`anon`, `service_role`, or a user's access token used as one).
public struct APIKey: Sendable {
    /// The key as sent.
    public var token: String
    /// Its verified claims.
    public var claims: AccessClaims
}

/// The gateway's refusals; the replies match Supabase's gateway word for word.
public enum APIKeyError: HTTPResponseError, Sendable, Hashable {
    /// No `apikey` header or query parameter.
    case missing
    /// The key is not a JWT signed with the project secret, or it expired.
    case invalid

    public var status: HTTPResponse.Status { .unauthorized }

    /// 401 with the gateway's `{"message": …, "hint": …}` body.
    public var response: Response {
        switch self {
        case .missing:
            return JSONReply.object(
                status: status,
                ["message": "No API key found in request", "hint": "No `apikey` request header or url param was found."])
        case .invalid:
            return JSONReply.object(
                status: status,
                ["message": "Invalid API key", "hint": "Double check your Supabase `anon` or `service_role` API key."])
        }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }
}

extension Request {
    /// The `apikey` header, else the `apikey` query parameter (as Supabase's gateway accepts it).
    public var apiKey: String? {
        let header = headers.value(of: .apiKey)
        if let header, !header.isEmpty { return header }
        if let query = uri.queryParameters.get("apikey"), !query.isEmpty { return query }
        return nil
    }

    /// The token of an `Authorization: Bearer …` header, if any.
    public var bearerToken: String? {
        guard let value = headers.value(of: .authorization) else { return nil }
        if let token = Self.plainBearerToken(value) { return token }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// The common `Bearer <token>` (one space, a token of visible ASCII), read byte by byte
    /// without Foundation; nil for anything else, which the general reading above handles.
    static func plainBearerToken(_ value: String) -> String? {
        let bytes = value.utf8
        guard bytes.count > 7 else { return nil }
        var index = bytes.startIndex
        for expected in "bearer".utf8 {
            guard bytes[index] | 0x20 == expected else { return nil }
            index = bytes.index(after: index)
        }
        guard bytes[index] == UInt8(ascii: " ") else { return nil }
        let token = value.utf8[bytes.index(after: index)...]
        guard token.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: token, as: UTF8.self)
    }
}

extension HTTPField.Name {
    /// `apikey`, the header Supabase's clients send their project key in.
    static let apiKey = HTTPField.Name("apikey")!
}

extension HTTPFields {
    /// The field's value, as the subscript gives it (a repeated field's values joined), without
    /// building that joined string for the usual single field (read on every request).
    func value(of name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            if found != nil { return self[name] }
            found = field.value
        }
        return found
    }
}

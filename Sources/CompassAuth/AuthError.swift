import CompassHTTP
import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Postgres

/// A refusal in GoTrue's words: HTTP status, `error_code` and message.
///
/// Clients that send `X-Supabase-Api-Version: 2024-01-01` (all official ones) get
/// `{"code":"<error_code>","message":…}` and the header back; others get the older
/// `{"code":<status>,"error_code":…,"msg":…}`. Messages never carry a password or token.
public struct AuthError: HTTPResponseError, Sendable, Hashable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// GoTrue's error code (`invalid_credentials`, `weak_password`, …).
    public var code: String
    /// The human-readable message.
    public var message: String
    /// For `weak_password`: why (`length`).
    public var weakPasswordReasons: [String]?

    /// Makes an error.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, weakPasswordReasons: [String]? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.weakPasswordReasons = weakPasswordReasons
    }

    /// The reply, in the shape the request's API version asks for.
    public func response(versioned: Bool) -> Response {
        var headers: HTTPFields = [:]
        let weak = weakPasswordReasons.map { WeakPassword(reasons: $0) }
        let body: any Encodable
        if versioned {
            headers[AuthError.apiVersionHeader] = AuthError.apiVersion
            body = Versioned(code: code, message: message, weak_password: weak)
        } else {
            body = Legacy(code: status.code, error_code: code, msg: message, weak_password: weak)
        }
        return (try? JSONReply.encoded(status: status, body, headers: headers))
            ?? JSONReply.text(status: .internalServerError, #"{"message":"internal error"}"#)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response(versioned: request.wantsVersionedAuthReplies)
    }

    /// GoTrue's reply for whatever an auth route threw: unexpected errors are logged (their
    /// descriptions carry no bind values, so no password or token) and answered with a bare 500.
    @Sendable static func translating(_ error: any Error, request: Request, logger: Logger) -> any HTTPResponseError {
        if let error = error as? AuthError { return error }
        if error.isPoolExhausted || error.isDatabaseUnavailable { return AuthError.databaseBusy }
        // A backstop: request bodies are checked for NUL first (``AuthRequestBody``), but text
        // that reaches SQL another way is still the client's fault, not a 500.
        if case SQLState.characterNotInRepertoire = error { return AuthError.unstorableText }
        logger.error("auth request failed: \(String(describing: error))", metadata: ["path": "\(request.uri.path)"])
        return AuthError.internalError
    }

    /// `X-Supabase-Api-Version`.
    public static let apiVersionHeader = HTTPField.Name("X-Supabase-Api-Version")!
    /// The API version whose error shape the clients expect.
    public static let apiVersion = "2024-01-01"

    private struct WeakPassword: Encodable { var reasons: [String] }
    private struct Versioned: Encodable {
        var code: String
        var message: String
        var weak_password: WeakPassword?
    }
    private struct Legacy: Encodable {
        var code: Int
        var error_code: String
        var msg: String
        var weak_password: WeakPassword?
    }
}

extension AuthError {
    static let invalidCredentials = AuthError(.badRequest, "invalid_credentials", "Invalid login credentials")
    /// An admin's `ban_duration` is still running.
    static let userBanned = AuthError(.badRequest, "user_banned", "User is banned")
    static let userIDTaken = AuthError(.unprocessableContent, "user_already_exists", "A user with this ID already exists")
    /// The same at `/verify`, where GoTrue answers 403.
    static let userBannedAtVerify = AuthError(.forbidden, "user_banned", "User is banned")
    static let refreshTokenNotFound = AuthError(
        .badRequest, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
    static let refreshTokenAlreadyUsed = AuthError(
        .badRequest, "refresh_token_already_used", "Invalid Refresh Token: Already Used")
    static let userAlreadyExists = AuthError(.unprocessableContent, "user_already_exists", "User already registered")
    static let emailExists = AuthError(
        .unprocessableContent, "email_exists", "A user with this email address has already been registered")
    static let invalidEmail = AuthError(.badRequest, "validation_failed", "Unable to validate email address: invalid format")
    static let notAdmin = AuthError(.forbidden, "not_admin", "User not allowed")
    static let userNotFound = AuthError(.notFound, "user_not_found", "User not found")
    static let sessionNotFound = AuthError(
        .forbidden, "session_not_found", "Session from session_id claim in JWT does not exist")
    static let noAuthorization = AuthError(.unauthorized, "no_authorization", "This endpoint requires a Bearer token")
    /// The admin routes' wording for the same (GoTrue's `requireAdminCredentials`).
    static let noAdminAuthorization = AuthError(.unauthorized, "no_authorization", "This endpoint requires a valid Bearer token")
    static let rateLimited = AuthError(
        .tooManyRequests, "over_request_rate_limit", "Request rate limit reached")
    static let databaseBusy = AuthError(
        .serviceUnavailable, "request_timeout", "Processing this request timed out, please retry after a moment.")
    static let internalError = AuthError(.internalServerError, "unexpected_failure", "Unexpected failure, please try again")
    /// GoTrue's refusal of a password bcrypt would truncate (400, not 422 `weak_password`).
    static let passwordTooLong = AuthError(
        .badRequest, "validation_failed",
        "Password cannot be longer than \(AuthConfiguration.maximumPasswordBytes) characters")
    /// Text Postgres cannot store (SQLSTATE 22021) that no field check caught; names nothing sent.
    static let unstorableText = AuthError(
        .badRequest, "validation_failed", "Request contains a character that cannot be stored (such as NUL)")

    static func badJSON(detail: String? = nil) -> AuthError {
        AuthError(.badRequest, "bad_json", "Could not parse request body as JSON" + (detail.map { ": " + $0 } ?? ""))
    }

    static func tooLarge(_ limit: Int) -> AuthError {
        AuthError(.contentTooLarge, "request_too_large", "Request body is larger than \(limit) bytes")
    }

    static func weakPassword(minimum: Int) -> AuthError {
        AuthError(
            .unprocessableContent, "weak_password", "Password should be at least \(minimum) characters.",
            weakPasswordReasons: ["length"])
    }

    /// GoTrue's refusal of a token that does not verify. What is wrong is named (a future iat or
    /// nbf, a claim that is not a number, a role), never with a claim's value beyond a role's
    /// first 40 characters.
    static func badJWT(_ error: AccessTokenError) -> AuthError {
        let reason = error.plainReason.dropFirst("invalid JWT: ".count)
        let detail =
            switch error {
            case .expired: "token has invalid claims: token is expired"
            case .missingClaims, .unknownRole: "token has invalid claims: \(reason)"
            default: String(reason)
            }
        return AuthError(.forbidden, "bad_jwt", "invalid JWT: unable to parse or verify signature, \(detail)")
    }

    static func validation(_ message: String) -> AuthError {
        AuthError(.badRequest, "validation_failed", message)
    }

    /// A body field holding U+0000, which Postgres cannot store; names the field, never its value.
    static func nulCharacter(in field: String) -> AuthError {
        validation("\(field) must not contain a NUL character")
    }
}

extension AuthError {
    /// GoTrue's per-user mail interval refusal.
    static func mailTooSoon(seconds: Int) -> AuthError {
        AuthError(
            .tooManyRequests, "over_email_send_rate_limit", "For security purposes, you can only request this after \(seconds) seconds.")
    }

    static let mailRateLimited = AuthError(.tooManyRequests, "over_email_send_rate_limit", "Email rate limit exceeded")

    /// The SMTP server did not take the mail (the cause is logged, not sent).
    static func mailFailed(_ template: MailTemplate) -> AuthError {
        let what = switch template {
        case .confirmation: "confirmation"
        case .recovery: "recovery"
        case .magicLink: "magic link"
        case .invite: "invite"
        case .emailChange: "email change"
        case .reauthentication: "reauthentication nonce"
        }
        return AuthError(.internalServerError, "unexpected_failure", "Error sending \(what) email")
    }

    /// A mailed token that does not exist (any more) or is too old: GoTrue's 403.
    static let otpExpired = AuthError(.forbidden, "otp_expired", "Token has expired or is invalid")
    /// The same, for a link opened in a browser.
    static let linkExpired = AuthError(.forbidden, "otp_expired", "Email link is invalid or has expired")
}

extension AuthError {
    /// Phone sign-in is not served (GoTrue with its phone provider off).
    static let phoneDisabled = AuthError(.badRequest, "phone_provider_disabled", "Unsupported phone provider")
    /// SAML single sign-on is not served (GoTrue with SAML off).
    static let samlDisabled = AuthError(.notFound, "saml_provider_disabled", "SAML 2.0 is disabled")
    /// Being an OAuth 2.1 server for other apps is not served (GoTrue with its OAuth server off).
    static let oauthServerDisabled = AuthError(.notFound, "feature_disabled", "OAuth server is disabled")
    /// With the OAuth server on: the authorization flow (authorize, consent, token, grants) is
    /// not served, only the client registry.
    static let oauthFlowNotServed = AuthError(
        .notImplemented, "feature_disabled", "The OAuth 2.1 authorization flow is not served by this server; only its client registry is")
    static let oauthClientNotFound = AuthError(.notFound, "oauth_client_not_found", "OAuth client not found")
    static let dynamicRegistrationDisabled = AuthError(
        .forbidden, "oauth_dynamic_client_registration_disabled", "Dynamic client registration is not enabled")
}

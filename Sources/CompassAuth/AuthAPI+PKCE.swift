import CompassDomain
import Foundation
import Hummingbird
import Postgres

/// PKCE for mailed links: `/verify` hands out a code, `/token?grant_type=pkce` exchanges it
/// (with the verifier only the asking client holds) for a session.
extension AuthAPI {
    /// How long a code handed out at `/verify` can be exchanged (GoTrue's 5 minutes).
    static let authCodeLifetime: TimeInterval = 300

    struct CodeExchangeBody: AuthRequestBody {
        var auth_code: String?
        var code_verifier: String?
        var textFields: KeyValuePairs<String, JSONValue?> {
            ["auth_code": auth_code.map(JSONValue.string), "code_verifier": code_verifier.map(JSONValue.string)]
        }
    }

    /// A fresh code for the user's latest flow of the link's kind; only its hash is stored.
    func issueAuthCode(for user: AuthUser, type: VerificationType, on tx: PostgresConnection) async throws -> String {
        guard let userID = UUID(uuidString: user.id), let method = type.authenticationMethod else { throw AuthError.flowStateNotFound }
        let code = UUID().uuidString.lowercased()
        guard try await store.issueAuthCode(userID: userID, method: method, codeHash: SessionIssuer.hash(code), now: sessions.now(), on: tx)
        else { throw AuthError.flowStateNotFound }
        return code
    }

    /// `POST /token?grant_type=pkce` `{auth_code, code_verifier}`: the session. A code is taken
    /// by its first exchange, right or wrong.
    func exchangeCode(_ request: Request) async throws -> AuthSession {
        let body = try await decodeBody(request, as: CodeExchangeBody.self)
        guard let code = body.auth_code, !code.isEmpty, let verifier = body.code_verifier, !verifier.isEmpty else {
            throw AuthError.validation("invalid request: both auth code and code verifier should be non-empty")
        }
        let now = sessions.now()
        let outcome: Result<AuthSession, AuthError> = try await store.transaction { tx in
            guard let flow = try await store.takeFlowState(codeHash: SessionIssuer.hash(code), on: tx) else {
                return .failure(.flowStateNotFound)
            }
            guard let issued = flow.codeIssuedAt, now.timeIntervalSince(issued) <= AuthAPI.authCodeLifetime else {
                return .failure(.flowStateExpired)
            }
            guard flow.challenge.isSatisfied(by: verifier) else { return .failure(.badCodeVerifier) }
            guard let user = try await store.user(id: flow.userID, on: tx) else { return .failure(.flowStateNotFound) }
            return .success(try await sessions.startSession(for: user, method: flow.authenticationMethod, on: tx))
        }
        return try outcome.get()
    }
}

extension AuthAPI.VerificationType {
    /// The flow a PKCE link of this type continues (nil: links never carry it).
    var authenticationMethod: String? {
        switch self {
        case .signup: MailTemplate.confirmation.authenticationMethod
        case .invite: MailTemplate.invite.authenticationMethod
        case .recovery: MailTemplate.recovery.authenticationMethod
        case .magiclink: MailTemplate.magicLink.authenticationMethod
        case .emailChange: MailTemplate.emailChange.authenticationMethod
        case .email, .sms, .phoneChange: nil
        }
    }
}

extension AuthError {
    static let flowStateNotFound = AuthError(.notFound, "flow_state_not_found", "invalid flow state, no valid flow state found")
    static let flowStateExpired = AuthError(.badRequest, "flow_state_expired", "invalid flow state, flow state has expired")
    static let badCodeVerifier = AuthError(
        .forbidden, "bad_code_verifier", "code challenge does not match previously saved code verifier")
}

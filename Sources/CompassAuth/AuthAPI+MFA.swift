import CompassDomain
import CompassHTTP
import Foundation
import Hummingbird

/// MFA with TOTP, as GoTrue serves it (`supabase.auth.mfa.enroll/challenge/verify/unenroll`).
///
/// Enrolling stores an unverified factor and hands its secret out once; a challenge of it
/// lasts ``challengeLifetime``; verifying a right code against the challenge verifies the
/// factor and raises the session to `aal2` (a new session reply whose token says so).
/// A code works once (its time step is recorded), a challenge takes ``attemptsPerChallenge``
/// wrong codes and a factor ``failedCodesPerHour``. Secrets and codes are never logged.
extension AuthAPI {
    /// Seconds a challenge can be verified (GoTrue's default).
    static let challengeLifetime: TimeInterval = 300
    /// Seconds an unverified factor is kept before a new enrolment clears it (GoTrue's default).
    static let unverifiedFactorLifetime: TimeInterval = 300
    /// Factors a user may hold (GoTrue's default).
    static let maximumFactors = 10
    /// Wrong codes a challenge takes before a new one is needed.
    static let attemptsPerChallenge = 5
    /// Wrong codes a factor takes in an hour, over all its challenges.
    static let failedCodesPerHour = 30

    struct FactorEnrollBody: AuthRequestBody {
        var factor_type: String?
        var friendly_name: String?
        var issuer: String?
        var textFields: KeyValuePairs<String, JSONValue?> {
            ["factor_type": factor_type.map(JSONValue.string), "friendly_name": friendly_name.map(JSONValue.string),
             "issuer": issuer.map(JSONValue.string)]
        }
    }

    struct FactorVerifyBody: AuthRequestBody {
        var challenge_id: String?
        var code: String?
        var textFields: KeyValuePairs<String, JSONValue?> {
            ["challenge_id": challenge_id.map(JSONValue.string), "code": code.map(JSONValue.string)]
        }
    }

    struct Enrolled: Encodable {
        struct TOTPDetails: Encodable {
            var qr_code: String
            var secret: String
            var uri: String
        }
        var id: String
        var type = "totp"
        var friendly_name: String
        var totp: TOTPDetails
    }

    struct Challenged: Encodable {
        var id: String
        var type = "totp"
        var expires_at: Int
    }

    struct Unenrolled: Encodable {
        var id: String
    }

    /// Adds `/factors` and its challenge, verify and unenroll routes.
    func addMFARoutes(to group: RouterGroup<CompassRequestContext>) {
        let api = self
        group.post("factors") { request, _ in try await api.enrollFactor(request) }
        group.post("factors/:id/challenge") { request, context in
            try await api.challengeFactor(request, factor: context.parameters.get("id"), address: context.clientAddress)
        }
        group.post("factors/:id/verify") { request, context in
            try await api.verifyFactor(request, factor: context.parameters.get("id"), address: context.clientAddress)
        }
        group.delete("factors/:id") { request, context in try await api.unenrollFactor(request, factor: context.parameters.get("id")) }
    }

    /// `POST /factors`: a new unverified TOTP factor, its secret and otpauth URI.
    func enrollFactor(_ request: Request) async throws -> Response {
        let (userID, session) = try await signedIn(request)
        let body = try await decodeBody(request, as: FactorEnrollBody.self)
        switch body.factor_type {
        case "totp": break
        case "phone": throw AuthError(.unprocessableContent, "mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone")
        case "webauthn": throw AuthError(.unprocessableContent, "mfa_web_authn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn")
        default: throw AuthError.validation("factor_type needs to be totp, phone, or webauthn")
        }
        let name = body.friendly_name ?? ""
        let issuer = body.issuer.flatMap { $0.isEmpty ? nil : $0 } ?? URL(string: configuration.siteURL)?.host ?? configuration.issuer
        let secret = Base32.encode(TOTP.randomSecret())
        let now = sessions.now()
        let (id, email) = try await store.transaction { tx -> (UUID, String) in
            guard let user = try await store.sessionUser(session: session, userID: userID, on: tx),
                let level = try await store.sessionLevel(session: session, userID: userID, on: tx)
            else { throw AuthError.sessionNotFound }
            try await store.deleteUnverifiedFactors(userID: userID, before: now.addingTimeInterval(-AuthAPI.unverifiedFactorLifetime), on: tx)
            let counts = try await store.factorCounts(userID: userID, friendlyName: name, on: tx)
            if counts.nameTaken {
                throw AuthError(
                    .unprocessableContent, "mfa_factor_name_conflict", "A factor with the friendly name \"\(name)\" for this user already exists")
            }
            if counts.total >= AuthAPI.maximumFactors {
                throw AuthError(
                    .unprocessableContent, "too_many_enrolled_mfa_factors", "Maximum number of verified factors reached, unenroll to continue")
            }
            if counts.verified > 0, level != "aal2" {
                throw AuthError(.forbidden, "insufficient_aal", "AAL2 required to enroll a new factor")
            }
            return (try await store.insertTOTPFactor(userID: userID, friendlyName: name, secret: secret, now: now, on: tx), user.email ?? "")
        }
        let uri = AuthAPI.otpauthURI(secret: secret, issuer: issuer, account: email)
        return try JSONReply.encoded(
            Enrolled(id: id.uuidString.lowercased(), friendly_name: name, totp: .init(qr_code: uri, secret: secret, uri: uri)))
    }

    /// `POST /factors/{id}/challenge`: a challenge of the user's factor, answerable for five minutes.
    func challengeFactor(_ request: Request, factor text: String?, address: String) async throws -> Response {
        let (userID, session) = try await signedIn(request)
        let factorID = try AuthAPI.factorID(text)
        let now = sessions.now()
        let id = try await store.transaction { tx -> UUID in
            guard try await store.sessionLevel(session: session, userID: userID, on: tx) != nil else { throw AuthError.sessionNotFound }
            guard try await store.lockFactor(id: factorID, userID: userID, on: tx) != nil else { throw AuthError.factorNotFound }
            return try await store.insertChallenge(factorID: factorID, address: address, now: now, on: tx)
        }
        let expiry = Int(now.addingTimeInterval(AuthAPI.challengeLifetime).timeIntervalSince1970)
        return try JSONReply.encoded(Challenged(id: id.uuidString.lowercased(), expires_at: expiry))
    }

    /// `POST /factors/{id}/verify`: the code for the challenge; right, a session at `aal2`.
    func verifyFactor(_ request: Request, factor text: String?, address: String) async throws -> Response {
        let (userID, session) = try await signedIn(request)
        let factorID = try AuthAPI.factorID(text)
        let body = try await decodeBody(request, as: FactorVerifyBody.self)
        guard let code = body.code, !code.isEmpty else { throw AuthError.validation("Code needs to be non-empty") }
        guard let challengeID = body.challenge_id.flatMap(UUID.init(uuidString:)) else {
            throw AuthError.validation("challenge_id must be an UUID")
        }
        let now = sessions.now()
        // Failures return (not throw) so the transaction commits the count of wrong codes.
        let outcome: Result<AuthSession, AuthError> = try await store.transaction { tx in
            guard try await store.sessionLevel(session: session, userID: userID, on: tx) != nil else { return .failure(.sessionNotFound) }
            guard let factor = try await store.lockFactor(id: factorID, userID: userID, on: tx) else { return .failure(.factorNotFound) }
            guard let challenge = try await store.lockChallenge(id: challengeID, factorID: factorID, on: tx) else {
                return .failure(AuthError(.unprocessableContent, "mfa_factor_not_found", "MFA factor with the provided challenge ID not found"))
            }
            if challenge.verified || challenge.address != address {
                return .failure(AuthError(.unprocessableContent, "mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch."))
            }
            if now.timeIntervalSince(challenge.createdAt) > AuthAPI.challengeLifetime {
                try await store.deleteChallenge(challenge.id, on: tx)
                return .failure(AuthError(
                    .unprocessableContent, "mfa_challenge_expired",
                    "MFA challenge \(challenge.id.uuidString.lowercased()) has expired, verify against another challenge or create a new challenge."))
            }
            let recentFailures = try await store.failedAttempts(factorID: factorID, since: now.addingTimeInterval(-3600), on: tx)
            if challenge.failedAttempts >= AuthAPI.attemptsPerChallenge || recentFailures >= AuthAPI.failedCodesPerHour {
                return .failure(AuthError(.tooManyRequests, "over_request_rate_limit", "Too many wrong codes: wait, then create a new challenge"))
            }
            guard factor.type == "totp", let secret = factor.secret.flatMap(Base32.decode) else { return .failure(.internalError) }
            guard let step = TOTP(secret: secret).matchingStep(of: code, at: now, after: factor.lastVerifiedStep) else {
                try await store.recordFailedAttempt(challenge: challenge.id, on: tx)
                return .failure(AuthError(.unprocessableContent, "mfa_verification_failed", "Invalid TOTP code entered"))
            }
            try await store.completeVerification(
                challenge: challenge.id, factor: factorID, step: step, session: session, userID: userID, now: now, on: tx)
            guard let user = try await store.user(id: userID, on: tx) else { return .failure(.sessionNotFound) }
            return .success(try await sessions.reissue(session: session, for: user, on: tx))
        }
        return try JSONReply.encoded(try outcome.get())
    }

    /// `DELETE /factors/{id}`: removes the factor (a verified one only from an `aal2` session).
    func unenrollFactor(_ request: Request, factor text: String?) async throws -> Response {
        let (userID, session) = try await signedIn(request)
        let factorID = try AuthAPI.factorID(text)
        try await store.transaction { tx in
            guard let level = try await store.sessionLevel(session: session, userID: userID, on: tx) else { throw AuthError.sessionNotFound }
            guard let factor = try await store.lockFactor(id: factorID, userID: userID, on: tx) else { throw AuthError.factorNotFound }
            if factor.verified, level != "aal2" {
                throw AuthError(.unprocessableContent, "insufficient_aal", "AAL2 required to unenroll verified factor")
            }
            try await store.deleteFactor(factorID, on: tx)
        }
        return try JSONReply.encoded(Unenrolled(id: factorID.uuidString.lowercased()))
    }

    /// The path's factor id.
    static func factorID(_ text: String?) throws(AuthError) -> UUID {
        guard let text, let id = UUID(uuidString: text) else { throw AuthError.validation("factor_id must be an UUID") }
        return id
    }

    /// The `otpauth://totp/` URI authenticator apps read (Key URI Format): issuer, account, secret.
    static func otpauthURI(secret: String, issuer: String, account: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~@")
        let label = [issuer, account].map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return "otpauth://totp/\(label[0]):\(label[1])?algorithm=SHA1&digits=6&issuer=\(label[0])&period=30&secret=\(secret)"
    }
}

extension AuthError {
    static let factorNotFound = AuthError(.notFound, "mfa_factor_not_found", "Factor not found")
}

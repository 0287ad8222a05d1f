import CompassHTTP
import Hummingbird

/// GoTrue features this server does not offer, answered as GoTrue answers them when they are
/// turned off, so a client learns which feature is off rather than meeting a bare 404.
extension AuthAPI {
    func addDisabledFeatureRoutes(to group: RouterGroup<CompassRequestContext>) {
        let api = self
        // SAML single sign-on (`sign_in_with_sso`, an identity provider posting its assertion).
        group.post("sso") { _, _ -> Response in throw AuthError.samlDisabled }
        group.get("sso/saml/metadata") { _, _ -> Response in throw AuthError.samlDisabled }
        group.post("sso/saml/acs") { _, _ -> Response in throw AuthError.samlDisabled }

        // The OAuth 2.1 server's authorization flow (its client registry is
        // `AuthAPI+OAuthClients.swift`). The user's grants check the session first, as GoTrue's
        // middleware does. With the server on, these say the flow is not served (501).
        let flowRefusal = configuration.oauthServer ? AuthError.oauthFlowNotServed : AuthError.oauthServerDisabled
        let notServed: @Sendable (Request, CompassRequestContext) async throws -> Response = { _, _ in throw flowRefusal }
        let signedInOnly: @Sendable (Request, CompassRequestContext) async throws -> Response = { request, _ in
            _ = try await api.signedIn(request)
            throw flowRefusal
        }
        group.get("user/oauth/grants", use: signedInOnly)
        group.delete("user/oauth/grants", use: signedInOnly)
        group.get(".well-known/oauth-authorization-server", use: notServed)
        group.post("oauth/token", use: notServed)
        group.get("oauth/userinfo", use: notServed)
        group.get("oauth/authorize", use: notServed)
        group.get("oauth/authorizations/:authorization_id", use: notServed)
        group.post("oauth/authorizations/:authorization_id/consent", use: notServed)
    }
}

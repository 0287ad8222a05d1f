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

        // The OAuth 2.1 server other apps sign in through. Admin routes check the admin first,
        // the user's grants the session first, as GoTrue's middleware does.
        let oauthDisabled: @Sendable (Request, CompassRequestContext) async throws -> Response = { _, _ in
            throw AuthError.oauthServerDisabled
        }
        let adminOnly: @Sendable (Request, CompassRequestContext) async throws -> Response = { request, _ in
            try await api.requireAdmin(request)
            throw AuthError.oauthServerDisabled
        }
        let signedInOnly: @Sendable (Request, CompassRequestContext) async throws -> Response = { request, _ in
            _ = try await api.signedIn(request)
            throw AuthError.oauthServerDisabled
        }
        group.post("admin/oauth/clients", use: adminOnly)
        group.get("admin/oauth/clients", use: adminOnly)
        group.get("admin/oauth/clients/:client_id", use: adminOnly)
        group.put("admin/oauth/clients/:client_id", use: adminOnly)
        group.delete("admin/oauth/clients/:client_id", use: adminOnly)
        group.post("admin/oauth/clients/:client_id/regenerate_secret", use: adminOnly)
        group.get("user/oauth/grants", use: signedInOnly)
        group.delete("user/oauth/grants", use: signedInOnly)
        group.get(".well-known/oauth-authorization-server", use: oauthDisabled)
        group.post("oauth/clients/register", use: oauthDisabled)
        group.post("oauth/token", use: oauthDisabled)
        group.get("oauth/userinfo", use: oauthDisabled)
        group.get("oauth/authorize", use: oauthDisabled)
        group.get("oauth/authorizations/:authorization_id", use: oauthDisabled)
        group.post("oauth/authorizations/:authorization_id/consent", use: oauthDisabled)
    }
}

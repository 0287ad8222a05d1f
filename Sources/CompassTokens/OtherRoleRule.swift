/// What a signed token whose `role` is none of anon, authenticated and service_role is.
///
/// PostgREST switches to whatever role the token names (`SET LOCAL ROLE`), and the database
/// decides: a role that does not exist is 401 22023, one the login role may not become 401/403
/// 42501. Supabase documents custom roles that way for its REST API; its other services refuse them.
public enum OtherRoleRule: Sendable, Hashable {
    /// Refused (``AccessTokenError/unknownRole(_:)``): auth, realtime, `/api`.
    case refused
    /// The named role (``AccessClaims/databaseRole``), never cached: REST.
    case accepted

    /// `none` is not a role: `set_config('role', 'none')` would make the request the login role.
    static let unnamedRoles: Set<String> = ["none"]
}

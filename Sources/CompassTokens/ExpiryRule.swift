/// Whether a token must carry `exp`: the one rule every surface follows.
///
/// GoTrue and PostgREST accept a signed token without `exp` (it never expires by time), and
/// so do `/auth/v1`, `/rest/v1` and `/api`: the clients' own test suites sign admin tokens
/// that way. Supabase Realtime requires `exp`, because it ends a subscription when its token
/// expires; `/realtime/v1` refuses such a token with Realtime's reason
/// (`InvalidJWTToken: Fields `role` and `exp` are required in JWT`).
public enum ExpiryRule: Sendable, Hashable {
    /// A token without `exp` is valid (REST, `/api`, auth).
    case optional
    /// A token without `exp` is refused (realtime).
    case required
}

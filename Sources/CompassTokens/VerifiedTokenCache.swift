import Synchronization

/// Tokens that passed every check, so the next request carrying the same bytes skips the
/// base64, JSON and HMAC work (every request carries an `apikey` and usually a bearer token).
///
/// Only what does not depend on the moment is remembered: the signature, the claims, the role.
/// A hit still runs the time checks (``TokenLifetime/check(at:)``) and the caller's
/// ``ExpiryRule``, so an entry can never outlive its token. Keyed by the whole token text:
/// a token that differs in one byte, its signature included, is verified from scratch.
final class VerifiedTokenCache: Sendable {
    /// A verified token: its claims and the time claims to check on each use.
    struct Entry: Sendable {
        var claims: AccessClaims
        var lifetime: TokenLifetime
    }

    /// At most this many tokens (a few MiB); when full, expired ones go first, then all.
    static let capacity = 4_096

    private let entries = Mutex<[String: Entry]>([:])

    /// The entry for `token`, if it was verified before.
    func entry(for token: String) -> Entry? {
        entries.withLock { $0[token] }
    }

    /// Remembers a token that passed every check.
    func insert(_ entry: Entry, for token: String, now: Double) {
        entries.withLock { entries in
            if entries.count >= Self.capacity {
                entries = entries.filter { $0.value.lifetime.expiresAt.map { $0 > now } ?? true }
                if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[token] = entry
        }
    }

    /// Forgets `token` (it expired).
    func remove(_ token: String) {
        _ = entries.withLock { $0.removeValue(forKey: token) }
    }

    /// How many tokens are remembered (for tests).
    var count: Int { entries.withLock { $0.count } }
}

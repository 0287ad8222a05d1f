import Synchronization

/// Remembers which subscribers' claim texts are exactly one JSON object, so each token's
/// claims are read once rather than on every change.
///
/// `realtime.visible_rows` takes such claims as the object itself (Postgres then parses
/// them once, with the call's argument, instead of once more per check). A text that is
/// not one well-formed object is sent as a string: spliced in as it is, it could add
/// members of its own to the check around it.
final class ClaimsObjectTexts: Sendable {
    private let known = Mutex<Set<String>>([])
    /// The most texts remembered; past it the memory starts over (tokens expire anyway).
    let limit: Int

    init(limit: Int = 50_000) {
        self.limit = max(1, limit)
    }

    /// True if `text` is one JSON object and nothing else.
    func isObject(_ text: String) -> Bool {
        if known.withLock({ $0.contains(text) }) { return true }
        guard case .object? = try? RealtimeJSON(parsing: text) else { return false }
        known.withLock {
            if $0.count >= limit { $0.removeAll() }
            $0.insert(text)
        }
        return true
    }
}

import Foundation

/// Counts failed sign-ins per email and per client address over a sliding window, in memory.
///
/// One worker process is one limiter; a restart forgets the counts (GoTrue's limiter is also
/// per instance). Only failures count, so a user who signs in correctly is never slowed.
public actor SignInRateLimiter {
    let perEmail: Int
    let perAddress: Int
    let window: TimeInterval
    private var failures: [String: [Date]] = [:]

    /// A limiter with the configuration's thresholds.
    public init(configuration: AuthConfiguration) {
        perEmail = configuration.failedSignInsPerEmail
        perAddress = configuration.failedSignInsPerAddress
        window = configuration.rateLimitWindow
    }

    /// Whether another attempt for `email` from `address` is refused at `now`.
    public func isLimited(email: String, address: String, now: Date) -> Bool {
        prune(now: now)
        return failures["e:" + email, default: []].count >= perEmail
            || failures["a:" + address, default: []].count >= perAddress
    }

    /// Records a failed attempt.
    public func recordFailure(email: String, address: String, now: Date) {
        failures["e:" + email, default: []].append(now)
        failures["a:" + address, default: []].append(now)
    }

    private func prune(now: Date) {
        let cutoff = now.addingTimeInterval(-window)
        failures = failures.compactMapValues { times in
            let recent = times.filter { $0 > cutoff }
            return recent.isEmpty ? nil : recent
        }
    }
}

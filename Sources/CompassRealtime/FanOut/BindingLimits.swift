/// How many table bindings joined channels may hold: all of them together, and those joined
/// from one client address (so one client cannot take the whole server's share).
public struct BindingLimits: Sendable, Equatable {
    /// Bindings every channel holds together.
    public var total: Int
    /// Bindings the channels joined from one counted address hold together.
    public var perAddress: Int

    public init(total: Int, perAddress: Int) {
        self.total = total
        self.perAddress = perAddress
    }

    /// No limit (tests and tools that fill the registry directly).
    public static let none = BindingLimits(total: .max, perAddress: .max)
}

/// What ``SubscriptionRegistry/join(_:queueing:limits:)`` did.
public enum JoinOutcome: Sendable {
    /// Joined; the channel it replaced (a re-join of the same topic), if any.
    case joined(replacing: ChannelRecord?)
    /// Not joined: it would pass a limit. Nothing changed; the channel it would replace stays.
    case refused(BindingLimitExceeded)
    /// Not joined: the connection left meanwhile.
    case clientLeft
}

/// The limit a refused join would pass.
public enum BindingLimitExceeded: Sendable, Equatable {
    /// ``BindingLimits/total``.
    case server(Int)
    /// ``BindingLimits/perAddress``.
    case address(Int)

    /// The join's error reply, in the reference's words for a limit.
    public var reason: String {
        switch self {
        case .server(let limit):
            return "PostgresChangesLimitReached: the server holds its most bindings (\(limit)); try again later"
        case .address(let limit):
            return "PostgresChangesLimitReached: channels from this address hold their most bindings (\(limit)); leave some first"
        }
    }
}

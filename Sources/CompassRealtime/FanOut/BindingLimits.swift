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

    /// Past this many bindings in all (four fifths of the total), an address may grow only up to
    /// ``perAddressNearTheTotal``: the last fifth is kept for the many clients that hold a few,
    /// so a handful of addresses at their full share cannot take every join from everyone else.
    var nearTheTotal: Int { total == .max ? .max : total / 5 * 4 }
    /// What one address may hold once the total is past ``nearTheTotal``: a tenth of its share.
    var perAddressNearTheTotal: Int { perAddress == .max ? .max : max(1, perAddress / 10) }

    /// The limit a join adding `added` bindings would pass, from an address (nil: not counted)
    /// that holds `held`, while every channel holds `total` bindings; nil when it passes none.
    func exceeded(adding added: Int, total current: Int, address held: Int?) -> BindingLimitExceeded? {
        guard added > 0 else { return nil }
        if current > total - added { return .server(total) }
        guard let held else { return nil }
        if held > perAddress - added { return .address(perAddress) }
        if current > nearTheTotal - added, held > perAddressNearTheTotal - added { return .nearTheTotal(perAddressNearTheTotal) }
        return nil
    }
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
    /// ``BindingLimits/perAddressNearTheTotal``, while the server is near its total.
    case nearTheTotal(Int)

    /// The join's error reply, in the reference's words for a limit.
    public var reason: String {
        switch self {
        case .server(let limit):
            return "PostgresChangesLimitReached: the server holds its most bindings (\(limit)); try again later"
        case .address(let limit):
            return "PostgresChangesLimitReached: channels from this address hold their most bindings (\(limit)); leave some first"
        case .nearTheTotal(let limit):
            return "PostgresChangesLimitReached: the server is near its most bindings; channels from this address may hold "
                + "\(limit) until it has room again"
        }
    }
}

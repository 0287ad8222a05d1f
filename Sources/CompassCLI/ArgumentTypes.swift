import ArgumentParser
import CompassDomain
import Foundation

// Values the commands parse directly; a bad one fails parsing with a message naming it (exit 2).

extension UUID: @retroactive ExpressibleByArgument {
    public init?(argument: String) {
        self.init(uuidString: argument)
    }
}

extension DateRange: ExpressibleByArgument {}
extension TimelineViewRange: ExpressibleByArgument {}
extension InteractionType: ExpressibleByArgument {}
extension InteractionDirection: ExpressibleByArgument {}
extension InteractionSentiment: ExpressibleByArgument {}

extension InteractionTimePeriod: ExpressibleByArgument {
    public init?(argument: String) {
        guard let days = Int(argument) else { return nil }
        self.init(rawValue: days)
    }

    public static var allValueStrings: [String] { allCases.map { String($0.rawValue) } }
}

/// `--type` of the feed: the event type names, or their short forms.
struct FeedTypeArgument: ExpressibleByArgument, Sendable {
    var type: ActivityEventType

    init?(argument: String) {
        guard let type = ActivityEventType(filterName: argument) else { return nil }
        self.type = type
    }

    static var allValueStrings: [String] { ActivityEventType.allCases.map(\.rawValue) }
}

/// `--hide event,interaction,offer,status_change`.
struct TimelineTypeList: ExpressibleByArgument, Sendable {
    var types: Set<TimelineItemType>

    init?(argument: String) {
        guard let types = TimelineItemType.set(fromList: argument) else { return nil }
        self.types = types
    }

    static var allValueStrings: [String] { TimelineItemType.allCases.map(\.rawValue) }
}

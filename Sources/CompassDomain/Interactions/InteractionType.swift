/// How an interaction with a coach happened (`interactions.type`).
public enum InteractionType: String, Sendable, Hashable, Codable, CaseIterable {
    /// An email.
    case email
    /// A phone call.
    case phoneCall = "phone_call"
    /// A text message.
    case text
    /// A visit in person.
    case inPersonVisit = "in_person_visit"
    /// A video or online meeting.
    case virtualMeeting = "virtual_meeting"
    /// A camp.
    case camp
    /// A showcase.
    case showcase
    /// A tweet.
    case tweet
    /// A direct message.
    case directMessage = "dm"

    /// The label the apps show, e.g. `Phone Call`, `Direct Message`.
    public var displayName: String {
        switch self {
        case .email: return "Email"
        case .phoneCall: return "Phone Call"
        case .text: return "Text"
        case .inPersonVisit: return "In-Person Visit"
        case .virtualMeeting: return "Virtual Meeting"
        case .camp: return "Camp"
        case .showcase: return "Showcase"
        case .tweet: return "Tweet"
        case .directMessage: return "Direct Message"
        }
    }

    /// The emoji of the Activity Feed and the timeline (DESIGN §4).
    public var icon: String {
        switch self {
        case .email: return "📧"
        case .phoneCall: return "☎️"
        case .text: return "💬"
        case .inPersonVisit: return "🤝"
        case .virtualMeeting: return "💻"
        case .camp: return "⛺"
        case .showcase: return "🎬"
        case .tweet: return "🐦"
        case .directMessage: return "📱"
        }
    }

    /// The emoji for an interaction whose stored type is not one of the known cases.
    public static let otherIcon = "📝"

    /// The SF Symbol the iOS list shows.
    public var symbolName: String {
        switch self {
        case .email: return "envelope.fill"
        case .phoneCall: return "phone.fill"
        case .text, .tweet: return "bubble.left.fill"
        case .inPersonVisit: return "person.2.fill"
        case .virtualMeeting: return "video.fill"
        case .camp: return "figure.run"
        case .showcase: return "star.fill"
        case .directMessage: return "paperplane.fill"
        }
    }

    /// The label for a stored type code, known or not: `phone_call` → `Phone Call`, `zoom_call` → `Zoom Call`.
    public static func label(forCode code: String) -> String {
        InteractionType(rawValue: code)?.displayName ?? DisplayLabel.humanized(code)
    }

    /// The emoji for a stored type code, `📝` when the code is unknown.
    public static func icon(forCode code: String) -> String {
        InteractionType(rawValue: code)?.icon ?? otherIcon
    }
}

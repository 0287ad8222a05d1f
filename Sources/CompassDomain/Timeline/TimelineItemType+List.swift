import Foundation

/// The comma-separated type lists of the timeline's hide filter (`--hide`, `?hide=`).
extension TimelineItemType {
    /// `event,status_change` as a set; nil when any part is not a type (spaces around parts are allowed).
    public static func set(fromList text: String) -> Set<TimelineItemType>? {
        var types = Set<TimelineItemType>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let type = TimelineItemType(rawValue: part.trimmingCharacters(in: .whitespaces)) else { return nil }
            types.insert(type)
        }
        return types
    }
}

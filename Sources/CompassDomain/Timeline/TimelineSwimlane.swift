import Foundation

/// One school's row of the timeline, or the "No School" row.
public struct TimelineSwimlane: Sendable, Hashable, Identifiable {
    /// The name of the lane of items without a school.
    public static let noSchoolName = "No School"

    /// An item and where it sits on the lane.
    public struct Entry: Sendable, Hashable, Codable {
        /// The item.
        public var item: TimelineItem
        /// Its place on the bar.
        public var placement: TimelinePlacement

        /// Pairs an item with its placement.
        public init(item: TimelineItem, placement: TimelinePlacement) {
            self.item = item
            self.placement = placement
        }
    }

    /// The school; `nil` for the "No School" lane.
    public var schoolId: UUID?
    /// The school's name, `Unknown School` when not found, or `No School`.
    public var schoolName: String
    /// The lane's items, oldest first, with their placements.
    public var entries: [Entry]

    /// Creates a lane.
    public init(schoolId: UUID?, schoolName: String, entries: [Entry]) {
        self.schoolId = schoolId
        self.schoolName = schoolName
        self.entries = entries
    }

    /// The lane's identity: the school id, or `no-school`.
    public var id: String { schoolId?.lowercasedString ?? "no-school" }

    /// The lane's items, oldest first.
    public var items: [TimelineItem] { entries.map(\.item) }

    /// How many rows the lane needs for its overlapping items.
    public var stackDepth: Int { (entries.map(\.placement.stackLevel).max() ?? -1) + 1 }

    /// The lanes for `items` on a bar spanning `interval`: one per school plus "No School", sorted by name.
    ///
    /// Names compare as the spec's `localeCompare` does (ICU's collation for `en_US`: accents
    /// and case after the letters, so "École" sorts among the E's and "alpha" just before
    /// "Alpha"; "No School" sorts among them like any name), then by id. Items in a lane run
    /// oldest first; an item that overlaps one before it moves to the next free row.
    public static func lanes(for items: [TimelineItem], in interval: DateInterval) -> [TimelineSwimlane] {
        let groups = Dictionary(grouping: items, by: \.schoolId)
        let lanes = groups.map { schoolId, items in
            let name = schoolId == nil
                ? noSchoolName : items.lazy.compactMap(\.schoolName).first ?? TimelineBuilder.unknownSchoolName
            return TimelineSwimlane(schoolId: schoolId, schoolName: name, entries: stacked(items, in: interval))
        }
        return lanes.sorted { lhs, rhs in
            let order = lhs.schoolName.compare(rhs.schoolName, locale: collationLocale)
            if order != .orderedSame { return order == .orderedAscending }
            if lhs.schoolName != rhs.schoolName { return lhs.schoolName < rhs.schoolName }
            return lhs.id < rhs.id
        }
    }

    /// The locale lane names are collated in (the apps' `localeCompare` in an English UI).
    private static let collationLocale = Locale(identifier: "en_US")

    /// Places `items` oldest first, giving each the lowest row where it overlaps nothing.
    static func stacked(_ items: [TimelineItem], in interval: DateInterval) -> [Entry] {
        let ordered = items.sorted { $0.date != $1.date ? $0.date < $1.date : $0.id < $1.id }
        var rowEnds: [Double] = []
        return ordered.map { item in
            var placement = TimelinePlacement.place(item, in: interval)
            let row = rowEnds.firstIndex { $0 <= placement.left } ?? rowEnds.count
            if row == rowEnds.count { rowEnds.append(placement.right) } else { rowEnds[row] = placement.right }
            placement.stackLevel = row
            return Entry(item: item, placement: placement)
        }
    }
}

extension TimelineSwimlane: Codable {
    private enum CodingKeys: String, CodingKey {
        case schoolId, schoolName, entries
    }

    /// Decodes the JSON that `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schoolId = try container.decodeIfPresent(UUID.self, forKey: .schoolId)
        schoolName = try container.decode(String.self, forKey: .schoolName)
        entries = try container.decode([Entry].self, forKey: .entries)
    }

    /// Encodes the lane with a lower-case school id (`null` for "No School").
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeUUID(schoolId, forKey: .schoolId)
        try container.encode(schoolName, forKey: .schoolName)
        try container.encode(entries, forKey: .entries)
    }
}

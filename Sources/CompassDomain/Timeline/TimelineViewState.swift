import Foundation

/// The timeline's controls: view range, school filter and which item types show.
///
/// ```swift
/// let state = TimelineViewState(viewRange: .threeMonths).hiding(.statusChange)
/// let layout = state.layout(of: items, today: .now)
/// layout.swimlanes.map(\.schoolName)   // ["Arizona State", "No School", "Stanford"]
/// ```
public struct TimelineViewState: Sendable, Hashable, Codable {
    /// How far back the timeline reaches.
    public var viewRange: TimelineViewRange
    /// Only this school's items; `nil` for all schools.
    public var selectedSchoolId: UUID?
    /// Item types switched off.
    public var hiddenTypes: Set<TimelineItemType>

    /// Creates a state; the defaults are 6 months, all schools, every type shown.
    public init(
        viewRange: TimelineViewRange = .default, selectedSchoolId: UUID? = nil, hiddenTypes: Set<TimelineItemType> = []
    ) {
        self.viewRange = viewRange
        self.selectedSchoolId = selectedSchoolId
        self.hiddenTypes = hiddenTypes
    }

    /// Whether items of `type` show.
    public func isShowing(_ type: TimelineItemType) -> Bool {
        !hiddenTypes.contains(type)
    }

    /// The state with `type` switched off.
    public func hiding(_ type: TimelineItemType) -> TimelineViewState {
        var copy = self
        copy.hiddenTypes.insert(type)
        return copy
    }

    /// The state with `type` switched on.
    public func showing(_ type: TimelineItemType) -> TimelineViewState {
        var copy = self
        copy.hiddenTypes.remove(type)
        return copy
    }

    /// The state with the school filter set (`nil` for all schools).
    public func selectingSchool(_ schoolId: UUID?) -> TimelineViewState {
        var copy = self
        copy.selectedSchoolId = schoolId
        return copy
    }

    /// The state with another view range.
    public func withViewRange(_ viewRange: TimelineViewRange) -> TimelineViewState {
        var copy = self
        copy.viewRange = viewRange
        return copy
    }

    /// `items` whose type shows and that belong to the selected school, if any.
    public func filter(_ items: [TimelineItem]) -> [TimelineItem] {
        items.filter { item in
            guard isShowing(item.type) else { return false }
            if let selectedSchoolId { return item.schoolId == selectedSchoolId }
            return true
        }
    }

    /// Everything the timeline draws for `items` on `today`.
    ///
    /// Items are filtered by type and school, the span comes from the view
    /// range, and items wholly outside the span are hidden. Future items up
    /// to the span's end (two months ahead) show.
    public func layout(
        of items: [TimelineItem], today: Date, calendar: Calendar = CompassCalendar.utc
    ) -> TimelineLayout {
        let filtered = filter(items)
        let interval = viewRange.dateInterval(for: filtered, today: today, calendar: calendar)
        let visible = filtered.filter { item in
            item.date <= interval.end && max(item.date, item.endDate ?? item.date) >= interval.start
        }
        let todayPosition = interval.contains(today) ? TimelinePlacement.percent(of: today, in: interval) : nil
        return TimelineLayout(
            interval: interval,
            months: TimelineMonth.months(in: interval, calendar: calendar),
            swimlanes: TimelineSwimlane.lanes(for: visible, in: interval),
            items: visible.sorted { $0.precedes($1) },
            todayPosition: todayPosition)
    }
}

import Foundation
import Testing
@testable import CompassDomain

@Suite("Timeline: ranges, months, geometry, swimlanes, filters")
struct TimelineLayoutTests {
    func item(_ n: Int, _ type: TimelineItemType = .interaction, at date: Date, until end: Date? = nil,
              school: UUID? = nil, name: String? = nil) -> TimelineItem {
        TimelineItem(id: "\(type.idPrefix)\(n)", sourceId: Fixture.uuid(n), type: type, typeLabel: "", emoji: "",
                     label: "item \(n)", date: date, endDate: end, schoolId: school, schoolName: name)
    }

    /// 100 days centred on now, so percentages are easy to read.
    var hundredDays: DateInterval {
        DateInterval(start: Fixture.daysAgo(50), end: Fixture.daysAgo(-50))
    }

    @Test("view ranges reach 3, 6 or 12 months back and always 2 months ahead", arguments: [
        (TimelineViewRange.threeMonths, "2025-11-08T12:00:00.000+00:00"),
        (.sixMonths, "2025-08-08T12:00:00.000+00:00"),
        (.twelveMonths, "2025-02-08T12:00:00.000+00:00"),
    ])
    func viewRanges(range: TimelineViewRange, start: String) {
        let interval = range.dateInterval(for: [], today: Fixture.now)
        #expect(CompassTimestamp.string(from: interval.start) == start)
        #expect(CompassTimestamp.string(from: interval.end) == "2026-04-08T12:00:00.000+00:00")
    }

    @Test("all time starts at the earliest item, else 6 months back, never after today")
    func allTime() {
        let old = item(1, at: Fixture.date("2024-09-01T00:00:00Z"))
        #expect(TimelineViewRange.allTime.dateInterval(for: [item(2, at: Fixture.now), old], today: Fixture.now).start
                == old.date)
        #expect(TimelineViewRange.allTime.dateInterval(for: [], today: Fixture.now).start
                == Fixture.date("2025-08-08T12:00:00Z"))
        let future = item(3, at: Fixture.daysAgo(-20))
        #expect(TimelineViewRange.allTime.dateInterval(for: [future], today: Fixture.now).start == Fixture.now)
        #expect(TimelineViewRange(rawValue: "6") == .sixMonths && TimelineViewRange.default == .sixMonths)
        #expect(TimelineViewRange.allCases.map(\.rawValue) == ["3", "6", "12", "all"])
    }

    @Test("month headers cover every month the span touches and tile the bar")
    func months() {
        let layout = TimelineViewState().layout(of: [], today: Fixture.now)
        let months = layout.months
        #expect(months.map(\.key) == ["2025-08", "2025-09", "2025-10", "2025-11", "2025-12", "2026-01", "2026-02",
                                      "2026-03", "2026-04"])
        #expect(months.map(\.label) == ["Aug", "Sep", "Oct", "Nov", "Dec", "Jan", "Feb", "Mar", "Apr"])
        #expect(months.first?.year == 2025 && months.last?.year == 2026)
        #expect(months.first?.left == 0)
        #expect(months.first?.date == Fixture.date("2025-08-01T00:00:00Z"))
        #expect(abs(months.map(\.width).reduce(0, +) - 100) < 1e-9)
        for (previous, next) in zip(months, months.dropFirst()) {
            #expect(abs(previous.left + previous.width - next.left) < 1e-9)
        }
    }

    @Test("month headers follow the calendar's time zone")
    func monthsInTimeZone() {
        let interval = DateInterval(start: Fixture.date("2026-01-31T23:30:00Z"), end: Fixture.date("2026-02-01T06:00:00Z"))
        #expect(TimelineMonth.months(in: interval).map(\.key) == ["2026-01", "2026-02"])
        let tokyo = CompassCalendar.gregorian(in: TimeZone(secondsFromGMT: 9 * 3_600)!)
        #expect(TimelineMonth.months(in: interval, calendar: tokyo).map(\.key) == ["2026-02"])
    }

    @Test("a dot sits at its date's share of the span and is 2% wide")
    func pointGeometry() {
        let placement = TimelinePlacement.place(item(1, at: Fixture.now), in: hundredDays)
        #expect(placement.left == 50)
        #expect(placement.width == 2)
        #expect(placement.isPoint)
    }

    @Test("a bar is as wide as its duration's share, but never under 2%")
    func barGeometry() {
        let tenDays = TimelinePlacement.place(item(1, .event, at: Fixture.now, until: Fixture.daysAgo(-10)), in: hundredDays)
        #expect(tenDays.left == 50)
        #expect(abs(tenDays.width - 10) < 1e-9)
        #expect(!tenDays.isPoint)
        let oneHour = TimelinePlacement.place(
            item(2, .event, at: Fixture.now, until: Fixture.now.addingTimeInterval(3_600)), in: hundredDays)
        #expect(oneHour.width == TimelinePlacement.minimumWidth)
        let zeroLength = TimelinePlacement.place(item(3, .event, at: Fixture.now, until: Fixture.now), in: hundredDays)
        #expect(zeroLength.isPoint && zeroLength.width == 2)
    }

    @Test("items at the edges stay on the bar")
    func edgeGeometry() {
        let nearEnd = TimelinePlacement.place(item(1, at: Fixture.daysAgo(-49)), in: hundredDays)
        #expect(abs(nearEnd.left - 99) < 1e-9)
        #expect(abs(nearEnd.width - 1) < 1e-9)
        let startsBefore = TimelinePlacement.place(
            item(2, .event, at: Fixture.daysAgo(60), until: Fixture.daysAgo(45)), in: hundredDays)
        #expect(startsBefore.left == 0)
        #expect(abs(startsBefore.width - 5) < 1e-9)
        let longBar = TimelinePlacement.place(
            item(3, .event, at: Fixture.daysAgo(10), until: Fixture.daysAgo(-200)), in: hundredDays)
        #expect(abs(longBar.right - 100) < 1e-9)
    }

    @Test("overlapping items in a lane move to the next free row")
    func stacking() throws {
        let school = Fixture.uuid(900)
        let items = [
            item(1, .event, at: Fixture.daysAgo(20), until: Fixture.daysAgo(10), school: school, name: "A"),
            item(2, at: Fixture.daysAgo(15), school: school, name: "A"),
            item(3, at: Fixture.daysAgo(15), school: school, name: "A"),
            item(4, at: Fixture.daysAgo(5), school: school, name: "A"),
        ]
        let lane = try #require(TimelineSwimlane.lanes(for: items, in: hundredDays).first)
        #expect(lane.entries.map(\.placement.stackLevel) == [0, 1, 2, 0])
        #expect(lane.stackDepth == 3)
    }

    @Test("lanes group by school, add a 'No School' lane, and sort by name ignoring case")
    func swimlanes() throws {
        let stanford = Fixture.uuid(901), asu = Fixture.uuid(902), baylor = Fixture.uuid(903)
        let items = [
            item(1, at: Fixture.daysAgo(1), school: stanford, name: "Stanford"),
            item(2, at: Fixture.daysAgo(2), school: nil),
            item(3, at: Fixture.daysAgo(3), school: asu, name: "arizona State"),
            item(4, at: Fixture.daysAgo(9), school: stanford, name: "Stanford"),
            item(5, at: Fixture.daysAgo(4), school: baylor, name: "Baylor"),
        ]
        let layout = TimelineViewState().layout(of: items, today: Fixture.now)
        #expect(layout.swimlanes.map(\.schoolName) == ["arizona State", "Baylor", "No School", "Stanford"])
        try #require(layout.swimlanes.count == 4)
        #expect(layout.swimlanes[2].schoolId == nil && layout.swimlanes[2].id == "no-school")
        #expect(layout.swimlanes[3].items.map(\.id) == ["interaction-4", "interaction-1"])
        #expect(layout.items.map(\.id) == ["interaction-1", "interaction-2", "interaction-3", "interaction-5", "interaction-4"])
        // As the spec's localeCompare: accented names among their letters, lower case first, symbols before letters.
        let names = ["Zeta", "École Polytechnique", "alpha", "Ångström Institute", "Alpha", "🏈 Tech", "Elon"]
        let collated = TimelineViewState().layout(
            of: names.enumerated().map { item($0.offset + 10, at: Fixture.daysAgo(1), school: Fixture.uuid(910 + $0.offset), name: $0.element) },
            today: Fixture.now)
        #expect(collated.swimlanes.map(\.schoolName) == ["🏈 Tech", "alpha", "Alpha", "Ångström Institute", "École Polytechnique", "Elon", "Zeta"])
    }

    @Test("a school whose name was not found gets an 'Unknown School' lane")
    func unknownSchoolLane() {
        let lanes = TimelineSwimlane.lanes(for: [item(1, at: Fixture.now, school: Fixture.uuid(950))], in: hundredDays)
        #expect(lanes.map(\.schoolName) == ["Unknown School"])
    }

    @Test("the school filter leaves one lane; type toggles hide their items")
    func filters() {
        let asu = Fixture.uuid(902)
        let items = [
            item(1, .event, at: Fixture.daysAgo(1), school: asu, name: "ASU"),
            item(2, .offer, at: Fixture.daysAgo(2), school: asu, name: "ASU"),
            item(3, .statusChange, at: Fixture.daysAgo(3), school: Fixture.uuid(901), name: "Stanford"),
            item(4, .interaction, at: Fixture.daysAgo(4)),
        ]
        let bySchool = TimelineViewState().selectingSchool(asu).layout(of: items, today: Fixture.now)
        #expect(bySchool.swimlanes.map(\.schoolName) == ["ASU"])
        #expect(bySchool.items.count == 2)
        let hidden = TimelineViewState().hiding(.event).hiding(.statusChange)
        #expect(hidden.layout(of: items, today: Fixture.now).items.map(\.type) == [.offer, .interaction])
        #expect(!hidden.isShowing(.event) && hidden.showing(.event).isShowing(.event))
        let nothing = TimelineItemType.allCases.reduce(TimelineViewState()) { $0.hiding($1) }
        #expect(nothing.layout(of: items, today: Fixture.now).isEmpty)
        #expect(TimelineViewState().selectingSchool(asu).selectingSchool(nil).filter(items).count == 4)
    }

    @Test("items outside the span are hidden; future items up to two months ahead show")
    func outsideRange() {
        let items = [
            item(1, at: Fixture.daysAgo(100)),
            item(2, at: Fixture.daysAgo(-30)),
            item(3, at: Fixture.daysAgo(-90)),
            item(4, .event, at: Fixture.daysAgo(120), until: Fixture.daysAgo(80)),
        ]
        let layout = TimelineViewState(viewRange: .threeMonths).layout(of: items, today: Fixture.now)
        #expect(layout.items.map(\.id) == ["interaction-2", "event-4"])
        #expect(TimelineViewState(viewRange: .sixMonths).layout(of: items, today: Fixture.now).items.count == 3)
        #expect(TimelineViewState(viewRange: .allTime).layout(of: items, today: Fixture.now).items.count == 3)
    }

    @Test("the Today marker sits at today's share of the span")
    func todayMarker() {
        let layout = TimelineViewState(viewRange: .threeMonths).layout(of: [], today: Fixture.now)
        let expected = layout.interval.start.distance(to: Fixture.now) / layout.interval.duration * 100
        #expect(layout.todayPosition == expected)
        #expect(layout.todayPosition.map { $0 > 55 && $0 < 65 } == true)
    }

    @Test("the layout encodes its span, months, lanes and items")
    func json() throws {
        let layout = TimelineViewState().layout(of: [item(1, at: Fixture.now)], today: Fixture.now)
        let object = try Fixture.jsonObject(layout)
        #expect(object["start"] as? String == "2025-08-08T12:00:00.000+00:00")
        #expect((object["months"] as? [Any])?.count == 9)
        let lane = (object["swimlanes"] as? [[String: Any]])?.first
        #expect(lane?["schoolName"] as? String == "No School")
        #expect(lane?["schoolId"] is NSNull)
        #expect((object["items"] as? [Any])?.count == 1)
    }
}

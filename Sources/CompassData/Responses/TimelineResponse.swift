import CompassDomain
import Foundation

/// What a timeline read asks for: `compass timeline`'s flags, `GET /api/v1/timeline`'s query parameters.
public struct TimelineRequest: Sendable, Hashable {
    /// The view range.
    public var range: TimelineViewRange
    /// Only this school's items (must be one of the user's schools).
    public var school: UUID?
    /// Item types to hide.
    public var hiddenTypes: Set<TimelineItemType>

    /// Creates a request.
    public init(range: TimelineViewRange = .default, school: UUID? = nil, hiddenTypes: Set<TimelineItemType> = []) {
        self.range = range
        self.school = school
        self.hiddenTypes = hiddenTypes
    }
}

/// The timeline layout's JSON plus the view range and the school filter's options.
public struct TimelineResponse: Sendable, Encodable {
    /// The view range shown.
    public var range: TimelineViewRange
    /// The school filter's options.
    public var schools: [TimelineSchool]
    /// Items, swimlanes and months.
    public var layout: TimelineLayout

    /// Creates a response.
    public init(range: TimelineViewRange, schools: [TimelineSchool], layout: TimelineLayout) {
        self.range = range
        self.schools = schools
        self.layout = layout
    }

    private enum CodingKeys: String, CodingKey { case viewRange, schools }

    /// The layout's keys plus `viewRange` and `schools`.
    public func encode(to encoder: any Encoder) throws {
        try layout.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(range, forKey: .viewRange)
        try container.encode(schools, forKey: .schools)
    }
}

extension TimelineRepository {
    /// Loads the scope user's timeline (two round trips) and lays it out for `request`.
    ///
    /// Throws ``DataAccessError/unknownSchool(_:)`` when `request.school` is not one of the user's schools.
    public func response(for request: TimelineRequest, today: Date = Date()) async throws -> TimelineResponse {
        let snapshot = try await load()
        if let school = request.school, !snapshot.schools.contains(where: { $0.id == school }) {
            throw DataAccessError.unknownSchool(school)
        }
        let state = TimelineViewState(viewRange: request.range, selectedSchoolId: request.school, hiddenTypes: request.hiddenTypes)
        return TimelineResponse(range: request.range, schools: snapshot.schools, layout: state.layout(of: snapshot.items, today: today))
    }
}

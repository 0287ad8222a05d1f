import Foundation

/// School and coach names for interaction cards, from the two lookup queries.
///
/// ```swift
/// let lookup = InteractionNameLookup(
///     schoolNames: [schoolId: "Stanford"],
///     coachNames: [coachId: InteractionNameLookup.coachName(firstName: "Pat", lastName: "Lee")])
/// lookup.schoolName(for: interaction)   // "Stanford", "Unknown School", or nil without a school
/// ```
public struct InteractionNameLookup: Sendable, Hashable {
    /// The name shown when an interaction's school was not found (deleted, or outside the family).
    public static let unknownSchoolName = "Unknown School"
    /// The name shown when an interaction's coach was not found.
    public static let unknownCoachName = "Unknown Coach"

    /// School id → name (`SELECT id, name FROM schools WHERE family_unit_id = $1`).
    public var schoolNames: [UUID: String]
    /// Coach id → `First Last` (`SELECT id, first_name, last_name, school_id FROM coaches WHERE school_id = ANY($1)`,
    /// names joined with `coachName(firstName:lastName:)`).
    public var coachNames: [UUID: String]

    /// Creates a lookup from the two maps.
    public init(schoolNames: [UUID: String] = [:], coachNames: [UUID: String] = [:]) {
        self.schoolNames = schoolNames
        self.coachNames = coachNames
    }

    /// `First Last`, trimmed, skipping an empty part.
    public static func coachName(firstName: String?, lastName: String?) -> String {
        [firstName, lastName]
            .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    /// The school line: `nil` without a school id, the name, or `Unknown School` when the id is not found.
    public func schoolName(for interaction: Interaction) -> String? {
        interaction.schoolId.map { schoolNames[$0] ?? Self.unknownSchoolName }
    }

    /// The coach line: `nil` without a coach id, the name, or `Unknown Coach` when the id is not found.
    public func coachName(for interaction: Interaction) -> String? {
        interaction.coachId.map { id in
            coachNames[id].flatMap { $0.isEmpty ? nil : $0 } ?? Self.unknownCoachName
        }
    }
}

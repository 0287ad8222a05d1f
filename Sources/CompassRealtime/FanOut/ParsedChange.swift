/// A change with its rows read into columns and its table's metadata attached.
struct ParsedChange: Sendable {
    let change: RealtimeChange
    let table: RealtimeTableMetadata
    /// The new row's members, in document order (INSERT, UPDATE).
    let record: [RealtimeJSONMember]?
    /// The old row's members, cut to what the replica identity provides (UPDATE, DELETE).
    let oldRecord: [RealtimeJSONMember]?
    /// The members filters test: the new row for INSERT and UPDATE, what the old row carries for DELETE.
    private let filterRow: [RealtimeJSONMember]

    /// Why a row could not be read.
    struct UnreadableRow: Error {}

    init(change: RealtimeChange, table: RealtimeTableMetadata) throws {
        self.change = change
        self.table = table
        let record = try change.recordJSON.map { try RealtimeJSON.objectMembers(of: $0) }
        let identity = table.oldRecordColumns
        let oldRecord = try change.oldRecordJSON.map { try RealtimeJSON.objectMembers(of: $0).filter { identity.contains($0.name) } }
        self.record = record
        self.oldRecord = oldRecord
        // INSERT and UPDATE are tested on the new row; DELETE only on what the old row carries.
        // Searched in place (a row has few columns): a dictionary per change cost more than the searches.
        self.filterRow = (change.type == .delete ? oldRecord : record) ?? []
    }

    /// True when the new row has a column the metadata does not know (the table changed).
    var hasUnknownColumns: Bool {
        record?.contains { table.column(named: $0.name) == nil } ?? false
    }

    /// The value a filter on `column` tests; nil when the row does not carry it.
    func filterValue(_ column: String) -> RealtimeJSON? {
        // The last of a repeated name, as an object read into a dictionary would keep.
        filterRow.last { $0.name == column }?.value
    }

    /// The primary key's values as text (what a `$n::type[]` array takes), nil if incomplete.
    var keyTexts: [String]? {
        let members = change.type == .delete ? oldRecord : record
        var texts: [String] = []
        for column in table.primaryKey {
            guard let member = members?.first(where: { $0.name == column.name }) else { return nil }
            switch member.value {
            case .string(let text): texts.append(text)
            case .number(let text): texts.append(text)
            case .bool(let value): texts.append(value ? "true" : "false")
            case .null: return nil
            case .array, .object: texts.append(member.rawText)
            }
        }
        return texts
    }
}

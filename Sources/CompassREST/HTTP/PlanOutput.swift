/// `Accept: application/vnd.pgrst.plan[+text|+json]; for="…"; options=analyze|verbose|…`: the
/// request's `EXPLAIN` instead of its rows, as PostgREST answers it with `db-plan-enabled`
/// (`COMPASS_REST_DB_PLAN_ENABLED`). `for` names the representation whose statement is explained
/// (JSON by default); `options` are `EXPLAIN`'s, in PostgREST's order whatever the client's.
struct PlanOutput: Sendable, Hashable {
    enum Format: Sendable, Hashable {
        case text, json
    }

    enum Option: String, Sendable, Hashable, CaseIterable {
        case analyze, verbose, settings, buffers, wal
    }

    var format: Format
    var options: [Option]

    /// The plan's format for a media type, or nil when `type` is not a plan's.
    static func format(of type: String) -> Format? {
        switch type {
        case "application/vnd.pgrst.plan", "application/vnd.pgrst.plan+text": .text
        case "application/vnd.pgrst.plan+json": .json
        default: nil
        }
    }

    /// `options=analyze|wal`: the names PostgREST knows, spelled as it spells them; others are ignored, as there.
    static func options(_ text: String?) -> [Option] {
        let named = Set((text ?? "").split(separator: "|").map(String.init))
        return Option.allCases.filter { named.contains($0.rawValue) }
    }

    /// `application/vnd.pgrst.plan+json; for="application/json"; options=analyze|wal`.
    func mediaType(for representation: String) -> String {
        var type = "application/vnd.pgrst.plan+" + (format == .json ? "json" : "text") + "; for=\"" + representation + "\""
        if !options.isEmpty { type += "; options=" + options.map(\.rawValue).joined(separator: "|") }
        return type
    }
}

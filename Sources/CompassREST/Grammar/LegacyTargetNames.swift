/// PostgREST's legacy target names (its default, `db-url-use-legacy-target-names`): a filter,
/// order, limit or offset may name an aliased embed by its relation, `tasks.name=eq.x` for
/// `select=the_tasks:tasks(name)`. It still applies, with a `Warning` that says what to write.
///
/// ```swift
/// var parameters = try QueryParameters(query: "select=the_tasks:tasks(id)&tasks.order=id")
/// parameters.order[["the_tasks"]]   // the terms; parameters.legacyTargets == [("tasks", "the_tasks")]
/// ```
/// A name that is some embed's key always means that embed.
extension QueryParameters {
    /// PostgREST's `Warning` for the relation names that stood for aliases, or nil.
    public var legacyTargetWarning: String? {
        guard !legacyTargets.isEmpty else { return nil }
        let updates = legacyTargets.map { "`\($0.relation)` to `\($0.alias)`" }.joined(separator: ", ")
        return #"299 compass-worker "Embedded resource was referenced by relation name even though it has an alias."#
            + #" This is deprecated and will stop working in a future release. Update "# + updates
            + #" in query string filters, orders or limits.""#
    }

    /// Rewrites the paths of filters, logic trees, orders, limits and offsets to embed keys.
    mutating func resolveLegacyTargetNames() {
        guard select.contains(where: { if case .embed = $0 { true } else { false } }) else { return }
        filters = filters.map { (resolved($0.path), $0.filter) }
        logic = logic.map { (resolved($0.path), $0.tree) }
        order = Dictionary(order.map { (resolved($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        limits = Dictionary(limits.map { (resolved($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        offsets = Dictionary(offsets.map { (resolved($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    private mutating func resolved(_ path: EmbedPath) -> EmbedPath {
        var items = select
        var result: EmbedPath = []
        for segment in path {
            let embeds = items.compactMap { item -> EmbedSelect? in if case .embed(let embed) = item { embed } else { nil } }
            if let embed = embeds.first(where: { $0.name == segment }) {
                result.append(segment)
                items = embed.items
            } else if let embed = embeds.first(where: { $0.relation == segment && $0.alias != nil }), let alias = embed.alias {
                if !legacyTargets.contains(where: { $0.relation == segment && $0.alias == alias }) { legacyTargets.append((segment, alias)) }
                result.append(alias)
                items = embed.items
            } else {
                // Not embedded at all: the planner answers PGRST108 with the name as written.
                return result + path[result.count...]
            }
        }
        return result
    }
}

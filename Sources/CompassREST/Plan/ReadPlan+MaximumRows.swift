extension RowRange {
    /// The window cut to at most `maximum` rows (PostgREST's `db-max-rows`); nil leaves it.
    func limited(to maximum: Int?) -> RowRange {
        guard let maximum else { return self }
        return RowRange(offset: offset, limit: Swift.min(limit ?? maximum, maximum))
    }
}

extension ReadPlan {
    /// Every embed's window cut to at most `maximum` rows, at every level, as PostgREST's
    /// `db-max-rows` cuts reads and calls (the top level's window is cut with the request's range).
    func limitingEmbeds(to maximum: Int?) -> ReadPlan {
        guard maximum != nil else { return self }
        var plan = self
        for index in plan.embeds.indices {
            plan.embeds[index].plan = plan.embeds[index].plan.limitingEmbeds(to: maximum)
            plan.embeds[index].plan.range = plan.embeds[index].plan.range.limited(to: maximum)
        }
        return plan
    }
}

/// The closest name to a misspelled one, for PostgREST's "Perhaps you meant …" hints.
enum FuzzyMatch {
    /// The candidate with the highest similarity (1 − edit distance / longer length) at or above `minimumScore`.
    ///
    /// The name comes from a request and may be any length; the edit distance is at least the
    /// difference in length, so a candidate whose length ratio is below `minimumScore` is
    /// skipped before any distance is computed (a 16,000-character table name costs nothing).
    static func best(for name: String, among candidates: some Sequence<String>, minimumScore: Double) -> String? {
        let wanted = Array(name.lowercased())
        var best: (String, Double)?
        for candidate in candidates.sorted() {
            let other = Array(candidate.lowercased())
            let longer = max(wanted.count, other.count)
            guard longer == 0 || Double(min(wanted.count, other.count)) / Double(longer) >= minimumScore else { continue }
            let score = similarity(wanted, other)
            if score >= minimumScore, score > (best?.1 ?? 0) { best = (candidate, score) }
        }
        return best?.0
    }

    static func similarity(_ a: [Character], _ b: [Character]) -> Double {
        let longer = max(a.count, b.count)
        guard longer > 0 else { return 1 }
        return 1 - Double(distance(a, b)) / Double(longer)
    }

    /// Levenshtein distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for (i, left) in a.enumerated() {
            current[0] = i + 1
            for (j, right) in b.enumerated() {
                current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

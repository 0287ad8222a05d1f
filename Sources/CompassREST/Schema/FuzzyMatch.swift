/// The closest name to a misspelled one, for PostgREST's "Perhaps you meant …" hints.
enum FuzzyMatch {
    /// The candidate with the highest similarity (1 − edit distance / longer length) at or above `minimumScore`.
    static func best(for name: String, among candidates: some Sequence<String>, minimumScore: Double) -> String? {
        var best: (String, Double)?
        for candidate in candidates.sorted() {
            let score = similarity(name.lowercased(), candidate.lowercased())
            if score >= minimumScore, score > (best?.1 ?? 0) { best = (candidate, score) }
        }
        return best?.0
    }

    static func similarity(_ a: String, _ b: String) -> Double {
        let longer = max(a.count, b.count)
        guard longer > 0 else { return 1 }
        return 1 - Double(distance(Array(a), Array(b))) / Double(longer)
    }

    /// Levenshtein distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1]
            for (j, right) in b.enumerated() {
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

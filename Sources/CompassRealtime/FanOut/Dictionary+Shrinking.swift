extension Dictionary {
    /// Rebuilds the storage when at most a quarter of it is used, so a map that once held a
    /// burst (thousands of clients) gives the memory back once they leave.
    ///
    /// Swift's `Dictionary` never shrinks on removal. Rebuilding at a quarter keeps the
    /// cost amortised: a rebuild moves `count` entries after at least `3 × count` removals.
    mutating func shrinkIfSparse(minimumCapacity: Int = 64) {
        guard capacity > minimumCapacity, count <= capacity / 4 else { return }
        if isEmpty {
            self = [:]
            return
        }
        var rebuilt = Self(minimumCapacity: count)
        for (key, value) in self { rebuilt[key] = value }
        self = rebuilt
    }
}

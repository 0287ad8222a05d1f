/// Percentiles of a sample, in the sample's unit.
struct Percentiles {
    var count: Int
    var p50: Double
    var p95: Double
    var p99: Double
    var max: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        count = sorted.count
        func at(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let index = Swift.min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
            return sorted[Swift.max(0, index)]
        }
        p50 = at(0.50)
        p95 = at(0.95)
        p99 = at(0.99)
        max = sorted.last ?? .nan
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    /// The duration in seconds.
    var seconds: Double { milliseconds / 1000 }
}

/// Formats a number with a fixed count of decimals.
func format(_ value: Double, decimals: Int = 1) -> String {
    guard value.isFinite else { return "-" }
    var text = String(Int((value * pow10(decimals)).rounded()))
    guard decimals > 0 else { return text }
    let negative = text.hasPrefix("-")
    if negative { text.removeFirst() }
    while text.count <= decimals { text = "0" + text }
    text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
    return (negative ? "-" : "") + text
}

private func pow10(_ exponent: Int) -> Double {
    (0..<exponent).reduce(1.0) { value, _ in value * 10 }
}

/// An admin's `ban_duration`, read as GoTrue reads it (Go's `time.ParseDuration`): `"none"`
/// lifts a ban, otherwise an optionally signed sequence of decimal numbers with units (`ns`,
/// `us`, `µs`, `ms`, `s`, `m`, `h`), such as `"24h"` or `"1h30m"`; `"0"` alone is zero. A zero
/// (or negative) duration leaves the account unbanned.
enum BanDuration {
    /// Seconds, or nil for `"none"`. Throws GoTrue's 400 for anything else.
    static func seconds(_ text: String) throws(AuthError) -> Double? {
        if text == "none" { return nil }
        guard let seconds = parse(text) else {
            throw .validation("invalid format for ban duration: time: invalid duration \"\(text)\"")
        }
        return seconds
    }

    private static let units: [(String, Double)] = [
        ("ns", 1e-9), ("us", 1e-6), ("µs", 1e-6), ("μs", 1e-6), ("ms", 1e-3), ("s", 1), ("m", 60), ("h", 3600),
    ]

    /// Go's limit: a duration is an Int64 of nanoseconds (about 292 years).
    private static let maximumSeconds = Double(Int64.max) / 1e9

    private static func parse(_ text: String) -> Double? {
        var rest = Substring(text)
        var sign = 1.0
        if rest.first == "-" || rest.first == "+" {
            sign = rest.first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        if rest == "0" { return 0 }
        guard !rest.isEmpty else { return nil }
        var total = 0.0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, number != ".", number.filter({ $0 == "." }).count <= 1,
                let value = Double(number.hasPrefix(".") ? "0" + number : number)
            else { return nil }
            rest = rest.dropFirst(number.count)
            guard let (unit, scale) = units.first(where: { rest.hasPrefix($0.0) }) else { return nil }
            rest = rest.dropFirst(unit.count)
            total += value * scale
            guard total <= maximumSeconds else { return nil }
        }
        return sign * total
    }
}

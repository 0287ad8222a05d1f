/// A `numeric` value compared exactly, at any precision, as Postgres compares them.
///
/// Foundation's `Decimal` keeps 38 digits, so two `numeric` values differing past the 38th
/// would compare equal. This keeps every significant digit: the value is
/// `0.d₁d₂d₃… × 10^exponent`, with no leading or trailing zero digit (zero has none).
/// Postgres orders `NaN` above `Infinity`, and `NaN` equal to itself.
public struct ExactDecimal: Hashable, Comparable, Sendable {
    private enum Kind: Int, Hashable, Sendable {
        case negativeInfinity, finite, positiveInfinity, notANumber
    }

    private let kind: Kind
    private let negative: Bool
    private let digits: [UInt8]
    private let exponent: Int

    /// Exponents past this are refused: Postgres's `numeric` stops far short of it.
    private static let exponentLimit = 1_000_000

    private init(kind: Kind, negative: Bool = false, digits: [UInt8] = [], exponent: Int = 0) {
        self.kind = kind
        self.negative = negative
        self.digits = digits
        self.exponent = exponent
    }

    /// Reads `numeric` input text (`-12.5`, `.5`, `1e3`, `NaN`, `Infinity`); nil when Postgres
    /// would refuse it.
    init?(_ text: String) {
        switch text.lowercased() {
        case "nan": self.init(kind: .notANumber); return
        case "infinity", "+infinity", "inf", "+inf": self.init(kind: .positiveInfinity); return
        case "-infinity", "-inf": self.init(kind: .negativeInfinity); return
        default: break
        }
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var all: [UInt8] = []  // every digit written, integer part then fraction
        var integerDigits = 0
        var seenPoint = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                all.append(byte - UInt8(ascii: "0"))
                if !seenPoint { integerDigits += 1 }
            } else {
                return nil
            }
        }
        guard !all.isEmpty else { return nil }
        var written = 0
        if !bytes.isEmpty {
            bytes = bytes.dropFirst()  // the `e`
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            guard !bytes.isEmpty else { return nil }
            for byte in bytes {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                written = written * 10 + Int(byte - UInt8(ascii: "0"))
                guard written <= Self.exponentLimit else { return nil }
            }
            if exponentNegative { written = -written }
        }
        // Postgres's limits: 131,072 digits before the point, 16,383 after it (as written).
        guard all.count - integerDigits - written <= 16_383 else { return nil }
        guard let first = all.firstIndex(where: { $0 != 0 }) else {
            self.init(kind: .finite)  // zero, whatever its sign or scale
            return
        }
        let last = all.lastIndex(where: { $0 != 0 })!
        let exponent = integerDigits - first + written
        guard exponent <= 131_072, (last - first + 1) - exponent <= 16_383 else { return nil }
        self.init(kind: .finite, negative: negative, digits: Array(all[first...last]), exponent: exponent)
    }

    public static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
        guard lhs.kind == .finite && rhs.kind == .finite else { return lhs.kind.rawValue < rhs.kind.rawValue }
        let (left, right) = (lhs.signum, rhs.signum)
        guard left == right else { return left < right }
        if left == 0 { return false }
        let magnitudeLess = lhs.exponent != rhs.exponent
            ? lhs.exponent < rhs.exponent
            : lhs.digits.lexicographicallyPrecedes(rhs.digits)
        let magnitudeEqual = lhs.exponent == rhs.exponent && lhs.digits == rhs.digits
        return left > 0 ? magnitudeLess : !(magnitudeLess || magnitudeEqual)
    }

    private var signum: Int { digits.isEmpty ? 0 : (negative ? -1 : 1) }
}

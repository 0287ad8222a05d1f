import Foundation

/// How a column's values compare, from its Postgres type.
public enum RealtimeValueKind: Sendable, Hashable {
    /// An integer type, with the values it can hold (a filter value outside is refused, as
    /// Postgres refuses the cast).
    case integer(range: ClosedRange<Int64>)
    case decimal
    case float
    /// `float4`: values rounded to single precision first, as Postgres reads them.
    case float4
    case boolean
    case uuid
    /// `timestamptz` (`withTimeZone`) or `timestamp`.
    case timestamp(withTimeZone: Bool)
    case date
    case text
    /// `char(n)` (`bpchar`): trailing spaces do not count, as Postgres compares them.
    case paddedText
    /// `citext`: compared lower-cased.
    case caseInsensitiveText
    /// An enum: each label's `pg_enum.enumsortorder`, which is how Postgres orders its values.
    /// Orders are compared within one version of the labels only: a label added later usually
    /// slots between its neighbours', but Postgres renumbers them all when there is no room.
    case enumeration(sortOrder: [String: Double])
    /// A type filters cannot compare (arrays, json, …); the name says which.
    case unsupported(String)

    /// Classifies a column from `pg_type.typname` and `typcategory`, and an enum's labels with
    /// their sort order.
    public init(typeName: String, category: String, enumSortOrder: [String: Double]? = nil) {
        if let enumSortOrder {
            self = .enumeration(sortOrder: enumSortOrder)
            return
        }
        switch typeName {
        case "int2": self = .integer(range: Int64(Int16.min)...Int64(Int16.max))
        case "int4": self = .integer(range: Int64(Int32.min)...Int64(Int32.max))
        case "int8": self = .bigint
        case "oid": self = .integer(range: 0...Int64(UInt32.max))
        case "numeric": self = .decimal
        case "float8": self = .float
        case "float4": self = .float4
        case "bool": self = .boolean
        case "uuid": self = .uuid
        case "timestamptz": self = .timestamp(withTimeZone: true)
        case "timestamp": self = .timestamp(withTimeZone: false)
        case "date": self = .date
        case "text", "varchar", "name", "char": self = .text
        case "bpchar": self = .paddedText
        case "citext": self = .caseInsensitiveText
        default: self = (category == "S" || category == "E") ? .text : .unsupported(typeName)
        }
    }

    /// `int8`: every `Int64`.
    public static let bigint = RealtimeValueKind.integer(range: .min ... .max)
}

/// A typed value a filter compares: the filter's operand or a row's column value.
///
/// Values of one column always share a case; comparing different cases never matches.
public enum RealtimeFilterValue: Sendable, Hashable {
    case integer(Int64)
    /// `numeric`, every digit kept.
    case decimal(ExactDecimal)
    case float(Double)
    case boolean(Bool)
    /// Text, compared byte by byte like Postgres's `C` collation; uuids are stored canonical.
    case text(String)
    /// Microseconds since 1970-01-01 00:00 (UTC for `timestamptz`).
    case timestamp(Int64)
    /// Days since 1970-01-01.
    case date(Int64)
    /// An enum label, as its sort order.
    case enumLabel(sortOrder: Double)

    /// Parses filter text the way a cast to the column's type would; nil when it would fail.
    public init?(text: String, kind: RealtimeValueKind) {
        let trimmed = text.trimmingWhitespace
        switch kind {
        case .integer(let range):
            guard let value = Int64(trimmed), range.contains(value) else { return nil }
            self = .integer(value)
        case .decimal:
            guard let value = ExactDecimal(trimmed) else { return nil }
            self = .decimal(value)
        case .float4:
            guard case .float(let double)? = RealtimeFilterValue(text: text, kind: .float) else { return nil }
            let single = Float(double)
            // Past float4's range either way, as Postgres refuses it.
            guard single.isFinite || !double.isFinite, single != 0 || double == 0 else { return nil }
            self = .float(Double(single))
        case .float:
            switch trimmed.lowercased() {
            case "nan": self = .float(.nan)
            case "infinity", "inf", "+infinity": self = .float(.infinity)
            case "-infinity", "-inf": self = .float(-.infinity)
            default:
                // Postgres refuses what a double cannot hold (`1e309`, `1e-400`) and reads NaN and
                // infinity only as the words above (Swift's reader also takes `snan`, `0x1p3`).
                let mantissa = trimmed.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
                guard trimmed.utf8.allSatisfy({ Self.decimalFloatBytes.contains($0) }), let value = Double(trimmed),
                    value.isFinite, value != 0 || !mantissa.contains(where: { (0x31...0x39).contains($0) })
                else { return nil }
                self = .float(value)
            }
        case .boolean:
            guard let value = Self.boolean(trimmed.lowercased()) else { return nil }
            self = .boolean(value)
        case .uuid:
            guard let canonical = Self.canonicalUUID(trimmed) else { return nil }
            self = .text(canonical)
        case .timestamp(let withTimeZone):
            if let infinite = Self.infinity(trimmed) {
                self = .timestamp(infinite)
                return
            }
            guard let micros = RealtimeTimestamp.microseconds(parsing: trimmed, honouringOffset: withTimeZone) else { return nil }
            self = .timestamp(micros)
        case .date:
            if let infinite = Self.infinity(trimmed) {
                self = .date(infinite)
                return
            }
            guard let days = RealtimeTimestamp.days(parsingDate: trimmed) else { return nil }
            self = .date(days)
        case .text:
            self = .text(text)
        case .paddedText:
            self = .text(Self.withoutTrailingSpaces(text))
        case .caseInsensitiveText:
            self = .text(text.lowercased())
        case .enumeration(let sortOrder):
            // Postgres takes a label exactly as written: no trimming, no case folding.
            guard let order = sortOrder[text] else { return nil }
            self = .enumLabel(sortOrder: order)
        case .unsupported:
            return nil
        }
    }

    /// The bytes of a decimal floating-point number: digits, sign, point, exponent.
    private static let decimalFloatBytes = Set("0123456789+-.eE".utf8)

    /// A boolean as Postgres reads one: any prefix of `true`, `false`, `yes` or `no`, `on`,
    /// `off` (at least `of`), `1` or `0`.
    private static func boolean(_ text: String) -> Bool? {
        guard !text.isEmpty else { return nil }
        if text == "1" { return true }
        if text == "0" { return false }
        for (word, value) in [("true", true), ("false", false), ("yes", true), ("no", false)] where word.hasPrefix(text) {
            return value
        }
        switch text {
        case "on": return true
        case "of", "off": return false
        default: return nil
        }
    }

    /// Postgres's `infinity` and `-infinity` for a timestamp or date (it refuses `+infinity`
    /// there): after and before every other value, as the extremes of the count, which no real
    /// date reaches.
    private static func infinity(_ text: String) -> Int64? {
        switch text.lowercased() {
        case "infinity": .max
        case "-infinity": .min
        default: nil
        }
    }

    /// Reads a row's JSON value (as `to_jsonb` wrote it); nil for NULL or a value of another shape.
    public init?(json: RealtimeJSON, kind: RealtimeValueKind) {
        switch (json, kind) {
        case (.null, _): return nil
        case (.number(let text), .integer), (.number(let text), .decimal), (.number(let text), .float),
            (.number(let text), .float4):
            self.init(text: text, kind: kind)
        case (.bool(let value), .boolean):
            self = .boolean(value)
        case (.string(let text), .text):
            self = .text(text)
        case (.string(let text), _):
            // Everything else `to_jsonb` writes as text: uuids, times, labels, an oid, and a
            // float's or numeric's NaN and Infinity.
            self.init(text: text, kind: kind)
        default:
            return nil
        }
    }

    /// `char(n)` text as Postgres compares it: without its trailing spaces.
    private static func withoutTrailingSpaces(_ text: String) -> String {
        let bytes = text.utf8
        guard bytes.last == UInt8(ascii: " ") else { return text }
        let kept = bytes.reversed().drop { $0 == UInt8(ascii: " ") }.count
        return String(decoding: bytes.prefix(kept), as: UTF8.self)
    }

    /// Orders two values of the same case; nil when they cannot be compared.
    public func compare(to other: RealtimeFilterValue) -> ComparisonResult? {
        func order<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
            lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
        }
        switch (self, other) {
        case (.integer(let lhs), .integer(let rhs)): return order(lhs, rhs)
        case (.decimal(let lhs), .decimal(let rhs)): return order(lhs, rhs)
        case (.float(let lhs), .float(let rhs)):
            // Postgres sorts NaN above every other value and equal to itself.
            switch (lhs.isNaN, rhs.isNaN) {
            case (true, true): return .orderedSame
            case (true, false): return .orderedDescending
            case (false, true): return .orderedAscending
            case (false, false): return order(lhs, rhs)
            }
        case (.boolean(let lhs), .boolean(let rhs)): return order(lhs ? 1 : 0, rhs ? 1 : 0)
        case (.text(let lhs), .text(let rhs)):
            if lhs.utf8.elementsEqual(rhs.utf8) { return .orderedSame }
            return lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? .orderedAscending : .orderedDescending
        case (.timestamp(let lhs), .timestamp(let rhs)): return order(lhs, rhs)
        case (.date(let lhs), .date(let rhs)): return order(lhs, rhs)
        case (.enumLabel(let lhs), .enumLabel(let rhs)): return order(lhs, rhs)
        default: return nil
        }
    }

    /// The lower-case hyphenated form of a uuid written any way Postgres accepts.
    ///
    /// Byte-level: the fan-out canonicalizes the filtered column of every change it matches.
    static func canonicalUUID(_ text: String) -> String? {
        var body = Substring(text).utf8[...]
        if body.first == UInt8(ascii: "{") && body.last == UInt8(ascii: "}") { body = body.dropFirst().dropLast() }
        var digits = 0
        var canonical = [UInt8]()
        canonical.reserveCapacity(36)
        var afterHyphen = false
        for byte in body {
            // As Postgres: a hyphen only between groups of four digits, one at a time.
            if byte == UInt8(ascii: "-") {
                guard digits % 4 == 0, digits > 0, digits < 32, !afterHyphen else { return nil }
                afterHyphen = true
                continue
            }
            afterHyphen = false
            let lower: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): lower = byte
            case UInt8(ascii: "A")...UInt8(ascii: "F"): lower = byte + 32
            default: return nil
            }
            guard digits < 32 else { return nil }
            if digits == 8 || digits == 12 || digits == 16 || digits == 20 { canonical.append(UInt8(ascii: "-")) }
            canonical.append(lower)
            digits += 1
        }
        guard digits == 32, !afterHyphen else { return nil }
        return String(decoding: canonical, as: UTF8.self)
    }
}

/// A filter bound to its column's type, ready to test row values.
public struct CompiledRealtimeFilter: Sendable, Hashable {
    /// The column it reads.
    public let column: String
    /// The comparison.
    public let `operator`: RealtimeFilter.Operator
    /// The typed operand(s).
    public let operands: [RealtimeFilterValue]
    /// How the column compares.
    public let kind: RealtimeValueKind

    /// Binds `filter` to a column of `kind`; throws when a value would not cast to it.
    public init(_ filter: RealtimeFilter, kind: RealtimeValueKind) throws(RealtimeFilterError) {
        if case .unsupported(let typeName) = kind {
            throw RealtimeFilterError("filters on column \"\(filter.column)\" of type \(typeName) are not supported")
        }
        var operands: [RealtimeFilterValue] = []
        for value in filter.values {
            guard let operand = RealtimeFilterValue(text: value, kind: kind) else {
                throw RealtimeFilterError("filter value '\(value)' is not valid for column \"\(filter.column)\"")
            }
            operands.append(operand)
        }
        self.column = filter.column
        self.operator = filter.operator
        self.operands = operands
        self.kind = kind
    }

    /// The same filter over another version of an enum's labels; nil when one of its labels is
    /// gone (or the filter is not on an enum).
    func retyped(as kind: RealtimeValueKind) -> CompiledRealtimeFilter? {
        guard case .enumeration(let old) = self.kind, case .enumeration(let new) = kind else { return nil }
        var labels: [String] = []
        for operand in operands {
            guard case .enumLabel(let order) = operand, let label = old.first(where: { $0.value == order })?.key,
                new[label] != nil
            else { return nil }
            labels.append(label)
        }
        return try? CompiledRealtimeFilter(RealtimeFilter(column: column, operator: `operator`, values: labels), kind: kind)
    }

    /// True when a row whose column holds `json` passes; NULL and absent columns never pass.
    public func matches(_ json: RealtimeJSON?) -> Bool {
        guard let json, let value = RealtimeFilterValue(json: json, kind: kind) else { return false }
        return matches(value)
    }

    /// True when a typed value passes.
    public func matches(_ value: RealtimeFilterValue) -> Bool {
        switch `operator` {
        case .in:
            return operands.contains { value.compare(to: $0) == .orderedSame }
        case .eq, .neq, .lt, .lte, .gt, .gte:
            guard let operand = operands.first, let order = value.compare(to: operand) else { return false }
            switch `operator` {
            case .eq: return order == .orderedSame
            case .neq: return order != .orderedSame
            case .lt: return order == .orderedAscending
            case .lte: return order != .orderedDescending
            case .gt: return order == .orderedDescending
            case .gte: return order != .orderedAscending
            case .in: return false
            }
        }
    }

    /// For `eq` on a column whose equal values hash equally: the value to index subscribers by.
    public var equalityKey: RealtimeFilterValue? {
        guard `operator` == .eq, let operand = operands.first else { return nil }
        switch operand {
        case .integer, .decimal, .boolean, .text, .timestamp, .date, .enumLabel: return operand
        case .float: return nil
        }
    }
}

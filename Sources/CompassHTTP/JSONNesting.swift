/// How deeply a JSON text nests arrays and objects, counted in one pass without parsing it.
///
/// ```swift
/// JSONNesting.exceeds(JSONNesting.maximumDepth, in: buffer.readableBytesView)   // false for `{"a":[1]}`
/// ```
/// Foundation's `JSONDecoder` takes time growing with the square of the depth to decode
/// a `JSONValue` (each level tries several types, and every failed try builds an error
/// carrying the whole coding path): a 12 KB body 500 levels deep cost a second of CPU.
/// Bodies are checked here first, so no request can buy that much.
public enum JSONNesting {
    /// The deepest nesting a request body may have; real metadata rarely passes five.
    public static let maximumDepth = 64

    /// Why a JSON request body is refused before it is decoded, or nil: it must be UTF-8 (as
    /// GoTrue reads it; Foundation would also take UTF-16, whose bytes this scan cannot read,
    /// so a body 500 levels deep got through), nested at most ``maximumDepth`` levels, and
    /// strict where Foundation is lenient (``strictnessProblem(in:)``).
    public static func problem(in bytes: some Collection<UInt8>) -> String? {
        // A NUL byte never appears in UTF-8 JSON (it would be escaped), and always in UTF-16 or UTF-32.
        if bytes.contains(0) || String(validating: bytes, as: UTF8.self) == nil { return "the body is not UTF-8" }
        if exceeds(maximumDepth, in: bytes) { return "nested more than \(maximumDepth) levels deep" }
        return strictnessProblem(in: bytes)
    }

    /// True when `bytes` open more than `limit` arrays and objects inside each other.
    /// Brackets inside strings do not count; malformed JSON is left for the decoder to refuse.
    public static func exceeds(_ limit: Int, in bytes: some Sequence<UInt8>) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
        }
        return false
    }
}

import Synchronization

/// The id of one HTTP request: the client's `X-Request-Id` when it is sane, else a fresh one.
///
/// ```swift
/// RequestID(incoming: "req-42").text        // "req-42"
/// RequestID(incoming: "bad id\n").text      // 32 fresh hex digits
/// ```
/// Sane means 1–128 characters of letters, digits and `-_.:`; anything else (a log-injection
/// attempt, a megabyte of header) is replaced rather than repeated in logs and replies.
public struct RequestID: Sendable, CustomStringConvertible {
    /// The id as sent back in `X-Request-Id` and logged as `request_id`.
    public let text: String

    /// Honours `incoming` when sane, else generates one.
    public init(incoming: String?) {
        if let incoming, Self.isSane(incoming) {
            text = incoming
        } else {
            text = Self.generate()
        }
    }

    public var description: String { text }

    /// The id of the request the current task serves (nil outside one): the log handler adds it to every line.
    @TaskLocal public static var current: String?

    static func isSane(_ candidate: String) -> Bool {
        let bytes = candidate.utf8
        guard !bytes.isEmpty, bytes.count <= 128 else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: ":"):
                true
            default: false
            }
        }
    }

    /// 32 lowercase hex digits: this process's 64 random bits, then a counter.
    ///
    /// Unique across requests and, by the random half, across workers; drawn from the system's
    /// generator once per process rather than twice per request (each draw is a `getrandom` call).
    static func generate() -> String {
        let low = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return String(unsafeUninitializedCapacity: 32) { buffer in
            for position in 0..<32 {
                let word = position < 16 ? processBits : low
                let shift = UInt64(60 - (position % 16) * 4)
                let nibble = UInt8((word >> shift) & 0xF)
                buffer[position] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 32
        }
    }

    /// The random half of every generated id.
    private static let processBits = UInt64.random(in: .min ... .max)
    /// The counting half; starts at a random point, so ids do not reveal how many requests came before.
    private static let counter = Atomic<UInt64>(UInt64.random(in: .min ... .max))
}

import Foundation

/// An opaque keyset cursor for the family activity feed: the `(created_at, id)` of the last row shown.
///
/// ```swift
/// let cursor = ParentActivityCursor(after: page.last!)
/// let text = cursor.encoded                         // URL-safe base64, 39 characters
/// let again = try ParentActivityCursor(encoded: text)
/// // WHERE (created_at, id) < ($2::timestamptz, $3::uuid)  with  again.timestampText, again.id
/// ```
///
/// The time is kept in whole microseconds, PostgreSQL's precision, so the next
/// page starts exactly after the last row even when rows share a second. New
/// rows arriving between pages sort before the cursor and cannot shift it.
///
/// The text is a version byte, the microseconds, the UUID and a CRC-32 over a
/// fixed tag and those bytes. Anything else is refused with a
/// `ParentActivityCursorError`. The checksum catches edits and foreign strings;
/// it is not a signature, and needs not be one: a forged cursor only moves
/// the position inside rows that RLS already lets the caller read.
public struct ParentActivityCursor: Sendable, Hashable {
    /// Microseconds since 1970 of the last row's `created_at`.
    public let microsecondsSinceEpoch: Int64
    /// The last row's id.
    public let id: UUID

    /// A cursor at `createdAt` (rounded to whole microseconds) and `id`.
    public init(createdAt: Date, id: UUID) {
        self.init(microsecondsSinceEpoch: CompassTimestamp.microseconds(of: createdAt), id: id)
    }

    /// A cursor at an exact microsecond timestamp and `id`.
    public init(microsecondsSinceEpoch: Int64, id: UUID) {
        self.microsecondsSinceEpoch = microsecondsSinceEpoch
        self.id = id
    }

    /// The cursor that continues after `activity`.
    public init(after activity: ParentActivity) {
        self.init(createdAt: activity.createdAt, id: activity.id)
    }

    /// The cursor's time as a date.
    public var createdAt: Date {
        Date(timeIntervalSince1970: Double(microsecondsSinceEpoch) / 1_000_000)
    }

    /// The exact time as text for a `timestamptz` bind, e.g. `2026-02-08T12:00:00.123456+00:00`.
    public var timestampText: String {
        CompassTimestamp.microsecondString(fromMicroseconds: microsecondsSinceEpoch)
    }

    /// Whether `activity` belongs after the cursor: `(created_at, id) < (cursor.created_at, cursor.id)`.
    public func admits(_ activity: ParentActivity) -> Bool {
        let micros = CompassTimestamp.microseconds(of: activity.createdAt)
        if micros != microsecondsSinceEpoch { return micros < microsecondsSinceEpoch }
        return activity.id.sortsBefore(id)
    }

    // MARK: Encoding

    /// 0001-01-01T00:00:00Z through 9999-12-31T23:59:59.999999Z, in microseconds since 1970.
    static let representableMicroseconds: ClosedRange<Int64> = -62_135_596_800_000_000...253_402_300_799_999_999

    private static let version: UInt8 = 1
    private static let byteCount = 1 + 8 + 16 + 4
    private static let checksumTag = Array("compass.parent-activity-cursor".utf8)

    /// The cursor as URL-safe base64 without padding.
    public var encoded: String {
        var bytes = payload
        let checksum = Self.checksum(bytes)
        bytes += (0..<4).map { UInt8(truncatingIfNeeded: checksum >> (24 - 8 * $0)) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Reads a cursor this server issued; throws for anything else.
    public init(encoded text: String) throws(ParentActivityCursorError) {
        guard !text.isEmpty else { throw .empty }
        let allowed = text.utf8.allSatisfy { byte in
            (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        guard allowed, text.count % 4 != 1 else { throw .notBase64URL }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { throw .notBase64URL }
        let bytes = [UInt8](data)
        guard bytes.count == Self.byteCount else { throw .wrongLength }
        guard bytes[0] == Self.version else { throw .unsupportedVersion }
        let body = Array(bytes[0..<(Self.byteCount - 4)])
        let stored = bytes[(Self.byteCount - 4)...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard stored == Self.checksum(body) else { throw .altered }
        let micros = Int64(bitPattern: bytes[1...8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        // The checksum is no secret: anyone can write a cursor at any time, and the query's text needs a year.
        guard Self.representableMicroseconds.contains(micros) else { throw .timeOutOfRange }
        let u = Array(bytes[9..<25])
        self.init(
            microsecondsSinceEpoch: micros,
            id: UUID(uuid: (u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7],
                            u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15])))
        // Base64's last character carries spare bits; a different one decodes to the same bytes.
        guard encoded == text else { throw .altered }
    }

    private var payload: [UInt8] {
        let micros = UInt64(bitPattern: microsecondsSinceEpoch)
        let u = id.uuid
        return [Self.version] + (0..<8).map { UInt8(truncatingIfNeeded: micros >> (56 - 8 * $0)) }
            + [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
    }

    /// CRC-32 (IEEE) of the tag followed by `bytes`.
    private static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in checksumTag + bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }
}

extension ParentActivityCursor: LosslessStringConvertible, Codable {
    /// Reads an encoded cursor; `nil` for anything this server did not issue.
    public init?(_ description: String) {
        guard let cursor = try? ParentActivityCursor(encoded: description) else { return nil }
        self = cursor
    }

    /// The encoded cursor.
    public var description: String { encoded }

    /// Decodes the cursor from its encoded string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            self = try ParentActivityCursor(encoded: container.decode(String.self))
        } catch let error as ParentActivityCursorError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the cursor as its encoded string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(encoded)
    }
}

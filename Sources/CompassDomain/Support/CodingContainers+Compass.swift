import Foundation

// The models encode themselves so that any plain JSONEncoder produces the
// backend's wire format: ISO 8601 timestamps with an offset, lower-case UUIDs,
// and explicit nulls for absent optional fields.

extension KeyedEncodingContainer {
    mutating func encodeTimestamp(_ date: Date, forKey key: Key) throws {
        try encode(CompassTimestamp.string(from: date), forKey: key)
    }

    mutating func encodeTimestamp(_ date: Date?, forKey key: Key) throws {
        try encode(date.map { CompassTimestamp.string(from: $0) }, forKey: key)
    }

    mutating func encodeUUID(_ id: UUID, forKey key: Key) throws {
        try encode(id.lowercasedString, forKey: key)
    }

    mutating func encodeUUID(_ id: UUID?, forKey key: Key) throws {
        try encode(id?.lowercasedString, forKey: key)
    }
}

extension KeyedDecodingContainer {
    func decodeTimestamp(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = CompassTimestamp.date(from: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "Expected an ISO 8601 timestamp with an offset.")
        }
        return date
    }

    func decodeTimestampIfPresent(forKey key: Key) throws -> Date? {
        guard try decodeIfPresent(String.self, forKey: key) != nil else { return nil }
        return try decodeTimestamp(forKey: key)
    }
}

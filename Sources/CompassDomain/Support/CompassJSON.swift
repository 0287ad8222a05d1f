import Foundation

/// The one JSON encoding of every response the CLI prints with `--json` and `/api` serves.
///
/// ```swift
/// let data = try CompassJSON.encode(page)   // pretty-printed, sorted keys, `/` unescaped
/// ```
/// Both surfaces call this, so the same value always produces the same bytes.
public enum CompassJSON {
    /// A fresh encoder with the shared settings (encoders are not `Sendable`, so none is cached).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` as one JSON document followed by a newline.
    ///
    /// A ``CompassJSONWritable`` value writes itself (the same bytes, tested, much faster).
    public static func encode(_ value: some Encodable) throws -> Data {
        if let writable = value as? any CompassJSONWritable {
            return Data(write(writable))
        }
        return try encoder().encode(value) + Data("\n".utf8)
    }

    /// ``encode(_:)``'s bytes, for a caller that copies them once more anyway (an HTTP body).
    public static func encodedBytes(_ value: some Encodable) throws -> [UInt8] {
        if let writable = value as? any CompassJSONWritable {
            return write(writable)
        }
        return Array(try encode(value))
    }

    private static func write(_ writable: any CompassJSONWritable) -> [UInt8] {
        var json = PrettyJSONWriter()
        writable.write(to: &json)
        json.endDocument()
        return json.bytes
    }
}

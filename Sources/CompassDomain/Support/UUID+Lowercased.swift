import Foundation
import UUIDText

extension UUID {
    /// The UUID in lower case, the way PostgreSQL prints it (`uuidString` is upper case).
    public var lowercasedString: String {
        lowercasedText
    }

    /// Whether `self` sorts before `other` the way PostgreSQL orders `uuid` values: byte by byte.
    ///
    /// The same order as comparing the lower-case strings, without building them.
    public func sortsBefore(_ other: UUID) -> Bool {
        withUnsafeBytes(of: uuid) { mine in
            withUnsafeBytes(of: other.uuid) { theirs in mine.lexicographicallyPrecedes(theirs) }
        }
    }
}

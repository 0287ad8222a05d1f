import Foundation

extension UUID {
    /// The UUID in lower case, the way PostgreSQL prints it (`uuidString` is upper case).
    public var lowercasedString: String {
        uuidString.lowercased()
    }
}

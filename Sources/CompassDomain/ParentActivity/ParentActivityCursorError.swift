/// Why a family-activity cursor was refused.
///
/// Messages never repeat the cursor's text; a caller that wants to show it adds it.
public enum ParentActivityCursorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The cursor was empty.
    case empty
    /// The cursor has characters outside URL-safe base64.
    case notBase64URL
    /// The cursor decodes to the wrong number of bytes.
    case wrongLength
    /// The cursor names a format version this server does not know.
    case unsupportedVersion
    /// The checksum does not match, or the text is not exactly what this server writes: it was altered.
    case altered
    /// The cursor's time is outside years 1–9999, where no row this server wrote can be.
    case timeOutOfRange

    /// A one-line explanation for a person.
    public var description: String {
        switch self {
        case .empty: return "the cursor is empty"
        case .notBase64URL: return "the cursor is not URL-safe base64, so it was not issued by this server"
        case .wrongLength: return "the cursor has the wrong length, so it was not issued by this server"
        case .unsupportedVersion: return "the cursor's format version is unknown, so it was not issued by this server"
        case .altered: return "the cursor was altered or not issued by this server (its checksum does not match)"
        case .timeOutOfRange: return "the cursor's time is outside years 1 to 9999, so it was not issued by this server"
        }
    }
}

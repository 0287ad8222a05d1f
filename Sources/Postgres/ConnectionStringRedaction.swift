import Foundation

/// Keeps a connection string's password out of messages while keeping what helps fix it.
///
/// ```swift
/// let redaction = ConnectionStringRedaction("postgresql://app:s3cret@db:54x2/compass")
/// redaction.apply(to: #"invalid integer value "54x2" for connection option "port""#)  // unchanged
/// ```
/// libpq quotes the offending fragment of a malformed string, which may be or hold the password:
/// fragments holding it (as written or percent-decoded) get `****` in its place; every other
/// fragment (a port, an option name) stays, since that is what the user needs to see.
struct ConnectionStringRedaction {
    /// The password as written (URL userinfo or `password=` keyword), if one could be found.
    let password: String?

    init(_ text: String) {
        password = Self.urlPassword(text) ?? Self.keywordPassword(text)
    }

    /// `message` with the password (raw or percent-decoded) replaced by `****`.
    func apply(to message: String) -> String {
        guard let password, !password.isEmpty else { return message }
        var result = message.replacingOccurrences(of: password, with: "****")
        if let decoded = password.removingPercentEncoding, !decoded.isEmpty {
            result = result.replacingOccurrences(of: decoded, with: "****")
        }
        return result
    }

    /// The password of `scheme://user:password@host…` (the userinfo ends at the authority's last `@`).
    private static func urlPassword(_ text: String) -> String? {
        guard let scheme = text.range(of: "://") else { return nil }
        let rest = text[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        let userinfo = authority[..<at]
        guard let colon = userinfo.firstIndex(of: ":") else { return nil }
        return String(userinfo[userinfo.index(after: colon)...])
    }

    /// The value of `password=…` in a keyword string (quoted or not).
    private static func keywordPassword(_ text: String) -> String? {
        guard let range = text.range(of: #"password\s*=\s*('[^']*'|\S+)"#, options: .regularExpression) else { return nil }
        let value = text[range].split(separator: "=", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return value.hasPrefix("'") ? String(value.dropFirst().dropLast()) : value
    }
}

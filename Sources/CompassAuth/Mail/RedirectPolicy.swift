import Foundation

/// Where a mailed link may send the browser after `/verify`: GoTrue's `redirect_to` rule.
///
/// A requested target is used when it has the site URL's host, or matches an entry of the
/// allow-list (an exact URL, or a glob where `*` stands for any characters but `.` and `/`
/// and `**` for any characters at all); anything else, or nothing, is the site URL. So a
/// link can never be made to deliver a session to someone else's site.
struct RedirectPolicy: Sendable {
    let siteURL: String
    let allowList: [String]

    init(configuration: AuthConfiguration) {
        siteURL = configuration.siteURL
        allowList = configuration.redirectAllowList
    }

    /// The target for a request that asked for `requested`.
    func target(_ requested: String?) -> String {
        // Any scheme may be allow-listed (an app's own, for deep links); only http(s) by host.
        guard let requested, !requested.isEmpty, let url = URLComponents(string: requested), url.scheme?.isEmpty == false,
            url.user == nil, url.password == nil
        else { return siteURL }
        if let host = url.host?.lowercased(), let siteHost = URLComponents(string: siteURL)?.host?.lowercased(),
            host == siteHost, ["http", "https"].contains(url.scheme?.lowercased() ?? "")
        {
            return requested
        }
        let withoutFragment = requested.split(separator: "#", maxSplits: 1).first.map(String.init) ?? requested
        for pattern in allowList where RedirectPolicy.matches(withoutFragment, pattern: pattern) || pattern == requested {
            return requested
        }
        return siteURL
    }

    /// Whether `text` matches the glob `pattern` as a whole.
    static func matches(_ text: String, pattern: String) -> Bool {
        var expression = "^"
        var characters = Array(pattern)[...]
        while let character = characters.popFirst() {
            if character == "*" {
                if characters.first == "*" {
                    characters.removeFirst()
                    expression += ".*"
                } else {
                    expression += "[^./]*"
                }
            } else {
                expression += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        expression += "$"
        return text.range(of: expression, options: .regularExpression) != nil
    }
}

/// Which sessions `POST /logout?scope=` ends, named as GoTrue names them.
enum LogoutScope: String, CaseIterable {
    /// Only the session of the request's token.
    case local
    /// Every session of the user except this one.
    case others
    /// Every session of the user: the default.
    case global

    /// Parses the `scope` parameter (absent or empty means ``global``); any other value is GoTrue's 400.
    init(parameter: String?) throws(AuthError) {
        guard let parameter, !parameter.isEmpty else {
            self = .global
            return
        }
        guard let scope = LogoutScope(rawValue: parameter) else {
            throw AuthError.validation("Unsupported logout scope \"\(parameter.prefix(20))\"")
        }
        self = scope
    }
}

import Postgres

extension RESTError {
    /// A database error in PostgREST's shape and with its status for the SQLSTATE:
    /// 409 for unique/foreign-key violations, 401 (anon) or 403 (a user) for 42501,
    /// 404 for an undefined function or table, 400 for other client errors, 5xx for the server's.
    init(_ error: PostgresError, isAuthenticated: Bool) {
        guard error.code == .server, let state = error.sqlState?.rawValue else {
            switch error.code {
            case .poolTimeout:
                // PostgREST answers 504; a saturated pool is the server being busy, so 503 with Retry-After.
                self.init(status: 503, code: "PGRST003", message: "Timed out acquiring connection from connection pool.")
            case .connectionFailed, .connectionLost, .closed, .poolClosed:
                self.init(status: 503, code: "PGRST000", message: "Database connection error.")
            default:
                self.init(status: 500, code: "PGRSTX00", message: "Database client error.")
            }
            return
        }
        self.init(
            status: Self.status(sqlState: state, message: error.message, isAuthenticated: isAuthenticated),
            code: state, message: error.message, details: error.detail, hint: error.hint)
        if status == 401 { headers["WWW-Authenticate"] = "Bearer" }
    }

    /// PostgREST's SQLSTATE → HTTP status table.
    static func status(sqlState state: String, message: String, isAuthenticated: Bool) -> Int {
        switch state {
        case "23503", "23505": return 409
        case "25006": return 405
        case "21000": return message.hasSuffix("requires a WHERE clause") ? 400 : 500
        case "22023": return message.hasPrefix("role") && message.hasSuffix("does not exist") ? 401 : 400
        case "53400": return 500
        case "57P01": return 503
        case "P0001": return 400
        case "42883": return message.hasPrefix("function xmlagg(") ? 406 : 404
        case "42P01": return 404
        case "42P17": return 500
        case "42501": return isAuthenticated ? 403 : 401
        default: break
        }
        switch state.prefix(2) {
        case "08": return 503
        case "09": return 500
        case "0L", "0P": return 403
        case "25", "2D", "38", "39", "3B", "40", "54", "55", "57", "58", "F0", "HV", "XX": return 500
        case "28": return 403
        case "53": return 503
        case "P0": return 500
        default: return 400
        }
    }
}

import Postgres

extension RESTError {
    /// A database error in PostgREST's shape and with its status for the SQLSTATE:
    /// 409 for unique/foreign-key violations, 401 (anon) or 403 (a user) for 42501,
    /// 404 for an undefined function or table, 400 for other client errors, 5xx for the server's.
    init(_ error: PostgresError, isAuthenticated: Bool) {
        guard error.code == .server, let state = error.sqlState else {
            switch error.code {
            case .poolTimeout: self = .poolTimeout
            case .connectionFailed, .connectionLost, .closed, .poolClosed: self = .databaseUnreachable
            default: self = .internalFailure(.databaseClient)
            }
            return
        }
        if let nul = Self.nulCharacter(state: state, message: error.message, details: error.detail) {
            self = nul
            return
        }
        if let raised = Self.raised(state: state.rawValue, message: error.message, details: error.detail, hint: error.hint) {
            self = raised
            return
        }
        self.init(sqlState: state, message: error.message, details: error.detail, hint: error.hint, isAuthenticated: isAuthenticated)
    }

    /// A NUL in text, as the Postgres client refuses it before sending (22021) or as Postgres
    /// refuses `\u0000` in JSON it turns into text (22P05); nil for any other error.
    private static func nulCharacter(state: SQLState, message: String, details: String?) -> RESTError? {
        let nulByte = "invalid byte sequence for encoding \"UTF8\": 0x00"
        if state == .characterNotInRepertoire, message.hasPrefix(nulByte) {
            return .nulCharacter(sqlState: state, message: nulByte, details: nil)
        }
        if state.rawValue == "22P05", details?.hasPrefix("\\u0000") == true {
            return .nulCharacter(sqlState: state, message: message, details: details)
        }
        return nil
    }

    /// An error carrying a SQLSTATE, with the status PostgREST gives it (and its `Bearer`
    /// challenge when that is 401): the one constructor for Postgres's errors and for the
    /// ones the catalog words as Postgres would.
    init(sqlState state: SQLState, message: String, details: String? = nil, hint: String? = nil, isAuthenticated: Bool) {
        self.init(
            status: Self.status(for: state, message: message, isAuthenticated: isAuthenticated),
            code: state.rawValue, message: message, details: details, hint: hint)
        if status == 401 { headers["WWW-Authenticate"] = "Bearer" }
    }

    /// PostgREST's SQLSTATE → HTTP status table: single states first, then whole classes.
    static func status(for state: SQLState, message: String, isAuthenticated: Bool) -> Int {
        switch state {
        case .foreignKeyViolation, .uniqueViolation: return 409
        case .readOnlySQLTransaction: return 405
        // PostgREST tells its own "UPDATE/DELETE requires a WHERE clause" guard from other cardinality errors.
        case .cardinalityViolation: return message.hasSuffix("requires a WHERE clause") ? 400 : 500
        // A JWT role the database lacks is the client's credentials, not a bad parameter.
        case .invalidParameterValue: return message.hasPrefix("role") && message.hasSuffix("does not exist") ? 401 : 400
        case .configurationLimitExceeded: return 500
        case .adminShutdown: return 503
        case .raiseException: return 400
        // `xmlagg` is missing only when a media type handler is; PostgREST answers that as not acceptable.
        case .undefinedFunction: return message.hasPrefix("function xmlagg(") ? 406 : 404
        case .undefinedTable: return 404
        case .invalidObjectDefinition: return 500
        case .insufficientPrivilege: return isAuthenticated ? 403 : 401
        default: break
        }
        switch state.errorClass {
        case "08": return 503  // connection exception
        case "09": return 500  // triggered action exception
        case "0L", "0P": return 403  // invalid grantor, invalid role specification
        // transaction state and termination, external routines, savepoints, rollbacks, program
        // limits, prerequisite state, operator intervention, system, config file, FDW, internal
        case "25", "2D", "38", "39", "3B", "40", "54", "55", "57", "58", "F0", "HV", "XX": return 500
        case "28": return 403  // invalid authorization specification
        case "53": return 503  // insufficient resources
        case "P0": return 500  // PL/pgSQL error
        default: return 400
        }
    }
}

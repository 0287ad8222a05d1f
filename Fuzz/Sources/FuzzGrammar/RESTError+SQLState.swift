import Postgres

// The catalog's one call into Execution/RESTError+Postgres.swift, which needs the whole
// Postgres client (PostgresError): a stand-in with the same signature. The parsers never
// reach it; it exists so Grammar/ compiles on its own.
extension RESTError {
    init(sqlState state: SQLState, message: String, details: String? = nil, hint: String? = nil, isAuthenticated: Bool) {
        self.init(status: 400, code: state.rawValue, message: message, details: details, hint: hint)
    }
}

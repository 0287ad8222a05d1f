/// A five-character SQLSTATE code, matchable in `catch` clauses.
///
/// ```swift
/// do { … } catch SQLState.uniqueViolation { … }   // see ~= in PostgresError+Matching.swift
/// ```
public struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The five characters, e.g. `23505`.
    public var rawValue: String

    /// Wraps a code as the server sent it.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The code itself.
    public var description: String { rawValue }

    /// The two-character class, e.g. `23` for integrity constraint violations.
    public var errorClass: String { String(rawValue.prefix(2)) }

    public static let uniqueViolation = SQLState(rawValue: "23505")
    public static let foreignKeyViolation = SQLState(rawValue: "23503")
    public static let notNullViolation = SQLState(rawValue: "23502")
    public static let checkViolation = SQLState(rawValue: "23514")
    /// Postgres ended this transaction to break a lock cycle; running it again may succeed.
    public static let deadlockDetected = SQLState(rawValue: "40P01")
    public static let insufficientPrivilege = SQLState(rawValue: "42501")
    public static let undefinedTable = SQLState(rawValue: "42P01")
    public static let undefinedColumn = SQLState(rawValue: "42703")
    public static let undefinedFunction = SQLState(rawValue: "42883")
    public static let syntaxError = SQLState(rawValue: "42601")
    public static let invalidTextRepresentation = SQLState(rawValue: "22P02")
    /// A byte sequence not valid in the encoding, e.g. a NUL in text (refused before sending).
    public static let characterNotInRepertoire = SQLState(rawValue: "22021")
    public static let queryCanceled = SQLState(rawValue: "57014")
    public static let adminShutdown = SQLState(rawValue: "57P01")
    public static let inFailedTransaction = SQLState(rawValue: "25P02")
    public static let serializationFailure = SQLState(rawValue: "40001")
    public static let featureNotSupported = SQLState(rawValue: "0A000")
    public static let invalidSQLStatementName = SQLState(rawValue: "26000")
    public static let raiseException = SQLState(rawValue: "P0001")
    public static let cardinalityViolation = SQLState(rawValue: "21000")
    public static let invalidParameterValue = SQLState(rawValue: "22023")
    public static let readOnlySQLTransaction = SQLState(rawValue: "25006")
    public static let undefinedObject = SQLState(rawValue: "42704")
    public static let invalidObjectDefinition = SQLState(rawValue: "42P17")
    public static let configurationLimitExceeded = SQLState(rawValue: "53400")
}

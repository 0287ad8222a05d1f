/// A setting is missing or malformed: the variable, the value as given (never a secret's) and
/// what is wrong with it. compass-worker prints it and exits 2.
///
/// ```swift
/// throw ConfigurationError("COMPASS_WORKER_PORT", value: "80a", problem: "is not a whole number in 0…65535")
/// // COMPASS_WORKER_PORT='80a' is not a whole number in 0…65535
/// ```
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The environment variable.
    public var variable: String
    /// The value as given, when it is safe to repeat (nil for secrets and missing values).
    public var value: String?
    /// What is wrong, as the end of a sentence (`is not set`, `is not a port number`).
    public var problem: String

    /// An error naming `variable`; pass `value` only when it is not a secret.
    public init(_ variable: String, value: String? = nil, problem: String) {
        self.variable = variable
        self.value = value
        self.problem = problem
    }

    public var description: String {
        guard let value else { return "\(variable) \(problem)" }
        return "\(variable)='\(value.prefix(200))' \(problem)"
    }
}

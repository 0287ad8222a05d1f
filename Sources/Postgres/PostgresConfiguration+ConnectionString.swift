import Foundation

extension PostgresConfiguration {
    /// The same settings pointed at another database on the same server.
    public func replacing(database: String) -> PostgresConfiguration {
        var copy = self
        copy.set("dbname", database)
        return copy
    }

    /// The settings as a libpq keyword string (`host='…' port='…'`), e.g. for a child process.
    ///
    /// It includes the password if there is one: never log it.
    public var connectionString: String {
        parameters.map { key, value in
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            return "\(key)='\(escaped)'"
        }.joined(separator: " ")
    }
}

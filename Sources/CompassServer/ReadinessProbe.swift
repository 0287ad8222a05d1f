import Logging
import Postgres

/// `/ready`'s checks: the database answers, its schema is at the latest migration this worker
/// ships, and realtime's LISTEN connection is up.
///
/// ```swift
/// let report = await probe.check()   // report.failing == nil: ready
/// ```
/// The database check leases from a one-connection pool of its own, so a saturated API pool
/// does not make a busy worker look dead, and a probe every second costs one query.
struct ReadinessProbe: Sendable {
    /// The probe's own connection (a `Service` the server runs beside the API pools).
    let pool: PostgresPool
    /// The latest migration in the `sql/migrations` this worker ships; nil when none was found.
    let expectedSchemaVersion: Int?
    /// Whether realtime's LISTEN connection is up right now.
    let isListening: @Sendable () -> Bool

    init(
        configuration: PostgresConfiguration, expectedSchemaVersion: Int?, logger: Logger,
        isListening: @escaping @Sendable () -> Bool
    ) {
        self.pool = PostgresPool(
            configuration: configuration, maximumConnections: 1, checkoutTimeout: .seconds(2), logger: logger)
        self.expectedSchemaVersion = expectedSchemaVersion
        self.isListening = isListening
    }

    /// Runs every check once.
    func check() async -> ReadinessReport {
        var report = ReadinessReport()
        switch await schemaVersion() {
        case .success(let version):
            report.set(.database, nil)
            report.set(.migrations, Self.migrationProblem(applied: version, expected: expectedSchemaVersion))
        case .failure(let problem):
            report.set(.database, problem.text)
            report.set(.migrations, "unknown while the database is unreachable")
        }
        report.set(.listen, isListening() ? nil : "realtime's LISTEN connection is down (reconnecting)")
        return report
    }

    /// The highest applied migration (nil: the database predates 0025), or why the database did not answer.
    ///
    /// A probe connection found dead (its backend killed, a restart since the last probe) is
    /// replaced and asked once more: the database is up if a new connection answers.
    private func schemaVersion() async -> Result<Int?, ReadinessProblem> {
        let first = await schemaVersionOnce()
        if case .failure(let problem) = first, problem.connectionWasLost { return await schemaVersionOnce() }
        return first
    }

    private func schemaVersionOnce() async -> Result<Int?, ReadinessProblem> {
        do {
            return .success(try await pool.withConnection { connection in
                try await connection.query("SELECT compass.schema_version()")[0].decode(Int?.self, at: 0)
            })
        } catch let error as PostgresError where error.code == .server {
            // Reachable, but without compass.schema_version(): migrated before 0025, or not at all.
            return .success(nil)
        } catch let error as PostgresError {
            var problem = ReadinessProblem("unreachable (\(error.code))")
            problem.connectionWasLost = error.code == .connectionLost || error.code == .closed
            return .failure(problem)
        } catch {
            return .failure(ReadinessProblem("unreachable"))
        }
    }

    static func migrationProblem(applied: Int?, expected: Int?) -> String? {
        guard let expected else { return "cannot tell: no sql/migrations folder found (set COMPASS_SQL_DIR)" }
        guard let applied else { return "the database predates migration \(expected) (run: compass migrate)" }
        // Newer is fine: migrations only add, so a worker not yet restarted after one keeps serving.
        guard applied >= expected else {
            return "the database is at migration \(applied), this worker needs \(expected) (run: compass migrate)"
        }
        return nil
    }
}

/// Why one part of `/ready` failed (no secrets: codes and versions only).
struct ReadinessProblem: Error, Sendable {
    var text: String
    /// The connection in use broke (rather than none could be opened): worth one more try.
    var connectionWasLost = false
    init(_ text: String) { self.text = text }
}

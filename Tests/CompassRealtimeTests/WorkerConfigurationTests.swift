import Testing

@testable import CompassRealtime

@Suite("Worker settings from the environment")
struct WorkerConfigurationTests {
    let required = ["DATABASE_URL": "postgresql://localhost/compass", "COMPASS_JWT_SECRET": "a-secret-of-32-characters-or-more!!"]

    @Test func theStatementCacheDefaultsTo128AndZeroTurnsItOff() throws {
        #expect(try WorkerConfiguration(environment: required).statementCacheSize == 128)
        let off = required.merging(["COMPASS_DB_STATEMENT_CACHE_SIZE": "0"]) { $1 }
        #expect(try WorkerConfiguration(environment: off).statementCacheSize == 0)
    }

    @Test(arguments: ["-1", "lots", "1.5"])
    func aMalformedStatementCacheSizeIsRefusedByName(_ text: String) {
        let environment = required.merging(["COMPASS_DB_STATEMENT_CACHE_SIZE": text]) { $1 }
        #expect {
            try WorkerConfiguration(environment: environment)
        } throws: { error in
            "\(error)".contains("COMPASS_DB_STATEMENT_CACHE_SIZE")
        }
    }
}

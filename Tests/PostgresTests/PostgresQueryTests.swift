import Foundation
import Testing

@testable import Postgres

@Suite("Query building and text codecs (no database)")
struct PostgresQueryTests {
    @Test func interpolatedValuesBecomeBinds() {
        let id = UUID()
        let name: String? = nil
        let query: PostgresQuery = "SELECT * FROM schools WHERE id = \(id) AND name = \(name) LIMIT \(50)"
        #expect(query.sql == "SELECT * FROM schools WHERE id = $1 AND name = $2 LIMIT $3")
        #expect(query.binds == [id.uuidString.lowercased(), nil, "50"])
    }

    @Test func injectionAttemptStaysABind() {
        let hostile = "x'; DROP TABLE schools; --"
        let query: PostgresQuery = "SELECT \(hostile)"
        #expect(query.sql == "SELECT $1")
        #expect(query.binds == [hostile])
    }

    @Test func fragmentsAreRenumbered() {
        let filter: PostgresQuery = "type = \("email") AND note = '$1 is literal'"
        let query: PostgresQuery = "SELECT 1 WHERE user_id = \(7) AND \(filter)"
        #expect(query.sql == "SELECT 1 WHERE user_id = $1 AND type = $2 AND note = '$1 is literal'")
        #expect(query.binds == ["7", "email"])
    }

    @Test func arrayLiteralsRoundTrip() {
        let items: [String?] = ["a", "b c", "say \"hi\"", "back\\slash", nil, "NULL", ""]
        let literal = PostgresArrayLiteral.format(items)
        #expect(PostgresArrayLiteral.parse(literal) == items)
        #expect(PostgresArrayLiteral.parse("{a,NULL,\"NULL\"}") == ["a", nil, "NULL"])
        #expect(PostgresArrayLiteral.parse("{}") == [])
        #expect(PostgresArrayLiteral.parse("{{1,2},{3,4}}") == nil)
        #expect(PostgresArrayLiteral.parse("not an array") == nil)
    }

    @Test func timestampsParseWithOffsetsAndFractions() throws {
        let utc = try #require(PostgresTimestamp.parse("2025-05-04 09:12:33.47912+00"))
        #expect(abs(utc.timeIntervalSince1970 - 1_746_349_953.47912) < 0.000_001)
        let shifted = try #require(PostgresTimestamp.parse("2025-05-04 11:12:33.47912+02"))
        #expect(abs(shifted.timeIntervalSince(utc)) < 0.000_001)
        #expect(PostgresTimestamp.parse("2025-13-04 09:12:33+00") == nil)
        #expect(PostgresTimestamp.parse("yesterday") == nil)
        #expect(PostgresTimestamp.format(utc) == "2025-05-04T09:12:33.479120Z")
        #expect(PostgresTimestamp.parse(PostgresTimestamp.format(utc)) == utc)
    }

    @Test func errorDescriptionRedactsBindValues() {
        var error = PostgresError(
            code: .server, message: "invalid input syntax for type uuid: \"secret-value\"",
            sqlState: .invalidTextRepresentation, query: "SELECT $1::uuid", binds: ["secret-value"])
        error.detail = "Key (email)=(secret-value) already exists."
        #expect(!error.description.contains("secret-value"))
        #expect(error.description.contains("22P02"))
        #expect(error.debugDescription.contains("SELECT $1::uuid"))
    }

    @Test func malformedURLNamesTheProblemNotThePassword() {
        #expect {
            _ = try PostgresConfiguration(url: "postgresql://alice:hunter2@host/db?sslmode_typo=1")
        } throws: { error in
            let error = error as? PostgresError
            return error?.code == .invalidConfiguration && error?.description.contains("hunter2") == false
        }
    }

    @Test(arguments: [
        ("postgresql://alice:hunter2@host/db?porrt=5", #"malformed database URL: invalid URI query parameter: "porrt""#),
        ("postgres://alice:hun%zzter2@host/db", #"malformed database URL: invalid percent-encoded token: "****""#),
        ("postgresql://alice:hunter2@[::1/db", #"malformed database URL: end of string reached when looking for matching "]" in IPv6 host address in URI: "postgresql://alice:****@[::1/db""#),
        ("http://alice:hunter2@host/db", #"malformed database URL: the scheme is "http", not postgresql:// or postgres://"#),
        ("host=x password='hunter2' bogus=1", #"malformed database URL: invalid connection option "bogus""#),
    ])
    func malformedURLSaysWhatIsWrongWithoutThePassword(url: String, message: String) {
        #expect {
            _ = try PostgresConfiguration(url: url)
        } throws: { error in
            "\(error)" == message
        }
    }

    /// Services holding a configuration are printed in debug logs ("Starting service …").
    @Test func aConfigurationPrintsWithoutItsPassword() throws {
        struct Holder { var configuration: PostgresConfiguration }
        let configuration = try PostgresConfiguration(url: "postgresql://alice:hunter2@db.example:6543/compass")
        for text in [
            "\(configuration)", String(reflecting: configuration), "\(Holder(configuration: configuration))",
            String(reflecting: Holder(configuration: configuration)), "\([configuration])",
        ] {
            #expect(!text.contains("hunter2"), "\(text)")
            #expect(text.contains("alice@db.example:6543/compass"), "\(text)")
        }
    }

    @Test func configurationPinsUTCAndNamesEndpoint() throws {
        let configuration = try PostgresConfiguration(url: "postgresql://alice:hunter2@db.example:6543/compass")
        #expect(configuration.endpoint == "db.example:6543")
        #expect(configuration.user == "alice")
        #expect(configuration.value(for: "options")?.contains("TimeZone=UTC") == true)
        let keywordForm = try PostgresConfiguration(url: "host=/tmp port=5999 user=bob dbname=x")
        #expect(keywordForm.endpoint == "/tmp:5999")
        #expect(keywordForm.replacing(database: "y").database == "y")
    }
}

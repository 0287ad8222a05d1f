import CompassHTTP
import CompassServer
import Testing

@Suite("compass-worker's settings, read once (no database)")
struct ServerConfigurationTests {
    let required = ["DATABASE_URL": "postgresql://localhost/compass", "COMPASS_JWT_SECRET": "a-secret-of-32-characters-or-more!!"]

    func configuration(_ extra: [String: String]) throws -> ServerConfiguration {
        try ServerConfiguration(environment: required.merging(extra) { $1 })
    }

    @Test func theStatementCacheDefaultsTo128AndZeroTurnsItOff() throws {
        #expect(try configuration([:]).database.preparedStatementCacheSize == 128)
        #expect(try configuration(["COMPASS_DB_STATEMENT_CACHE_SIZE": "0"]).database.preparedStatementCacheSize == 0)
    }

    @Test(arguments: ["-1", "lots", "1.5"])
    func aMalformedStatementCacheSizeIsRefusedByName(_ text: String) {
        #expect {
            try configuration(["COMPASS_DB_STATEMENT_CACHE_SIZE": text])
        } throws: { error in
            "\(error)".contains("COMPASS_DB_STATEMENT_CACHE_SIZE")
        }
    }

    @Test func signingKeysAreOptionalAndABadSetStopsTheWorkerWithoutQuotingIt() throws {
        #expect(try configuration([:]).jwtSigningKeys == nil)
        let privatePart = "c2VjcmV0LXByaXZhdGUtcGFydC1vZi10aGUta2V5"
        #expect {
            try configuration(["COMPASS_JWT_SIGNING_KEYS": #"{"keys":[{"kty":"EC","crv":"P-256","x":"a","y":"b","d":"\#(privatePart)"}]}"#])
        } throws: { error in
            "\(error)".contains("COMPASS_JWT_SIGNING_KEYS") && "\(error)".contains("has no kid") && !"\(error)".contains(privatePart)
        }
    }

    @Test func everyAPIsSettingsAreTrimmedByTheSameRule() throws {
        let settings = try configuration([
            "COMPASS_WORKER_PORT": " 4001", "COMPASS_AUTH_JWT_EXPIRY": " 3600 ", "COMPASS_REST_MAX_BODY_BYTES": "2048\n",
            "COMPASS_API_MAX_BODY_BYTES": " 99", "COMPASS_REALTIME_OUTBOUND_BUFFER": " 7 ", "COMPASS_AUTH_AUTOCONFIRM": " false",
        ])
        #expect(settings.port == 4001)
        #expect(settings.auth.jwtExpiry == 3600)
        #expect(settings.auth.autoconfirm == false)
        #expect(settings.rest.maximumBodyBytes == 2048)
        #expect(settings.appAPI.maximumBodyBytes == 99)
        #expect(settings.realtime.outboundBufferFrames == 7)
    }

    @Test func badValuesThrowOneErrorTypeNamingTheVariable() {
        for (name, value) in [
            ("COMPASS_AUTH_JWT_EXPIRY", "soon"), ("COMPASS_AUTH_AUTOCONFIRM", "maybe"), ("COMPASS_API_MAX_BODY_BYTES", "0"),
            ("COMPASS_REALTIME_IDLE_TIMEOUT_SECONDS", "-5"), ("LOG_LEVEL", "loud"), ("COMPASS_WORKER_PORT", "99999"),
        ] {
            #expect {
                try configuration([name: value])
            } throws: { error in
                (error as? ConfigurationError)?.variable == name && "\(error)".contains("'\(value)'")
            }
        }
    }

    @Test func aShortSecretSaysTheMinimumWithoutTheSecret() {
        #expect {
            try ServerConfiguration(environment: ["DATABASE_URL": "postgresql://localhost/x", "COMPASS_JWT_SECRET": "short-secret"])
        } throws: { error in
            "\(error)" == "COMPASS_JWT_SECRET is 12 bytes long; HS256 needs at least 32 bytes"
        }
    }

    @Test func aMissingDatabaseURLIsNamed() {
        #expect {
            try ServerConfiguration(environment: ["COMPASS_JWT_SECRET": "a-secret-of-32-characters-or-more!!"])
        } throws: { error in
            "\(error)" == "DATABASE_URL is not set"
        }
    }
}

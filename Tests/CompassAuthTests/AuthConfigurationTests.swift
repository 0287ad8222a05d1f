import CompassAuth
import CompassHTTP
import Testing

@Suite("Auth settings from the environment")
struct AuthConfigurationTests {
    @Test("lifetimes and intervals are bounded where their arithmetic would overflow")
    func boundedSettings() throws {
        let year = try AuthConfiguration(reading: EnvironmentReader(["COMPASS_AUTH_JWT_EXPIRY": "31536000"]))
        #expect(year.jwtExpiry == 31_536_000)
        for (name, value) in [
            ("COMPASS_AUTH_JWT_EXPIRY", "9223372036854775807"), ("COMPASS_AUTH_JWT_EXPIRY", "31536001"),
            ("COMPASS_AUTH_JWT_EXPIRY", "0"), ("COMPASS_AUTH_MAILER_MIN_INTERVAL", "9223372036854775807"),
            ("COMPASS_AUTH_MAILER_MIN_INTERVAL", "-1"),
        ] {
            #expect(throws: ConfigurationError.self, "\(name)=\(value)") {
                try AuthConfiguration(reading: EnvironmentReader([name: value]))
            }
        }
    }
}

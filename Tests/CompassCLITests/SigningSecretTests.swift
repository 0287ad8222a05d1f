import CompassTestSupport
import Foundation
import Testing

@testable import CompassCLI

/// `compass token` and `compass keys` find the secret `make run` gave its worker, take `--json`,
/// and say what is wrong with a secret; `compass --version` answers.
@Suite("compass token/keys: the worker's secret, --json, --version")
struct SigningSecretTests {
    static let secret = "make-run-secret-0123456789abcdef0123"

    /// A checkout-like folder with `.data/compass.env` as `make run` writes it, and a folder below it.
    static func checkout() throws -> (root: URL, nested: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cli-secret-\(UUID().uuidString.prefix(8))")
        let nested = root.appendingPathComponent("Sources/Deep")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".data"), withIntermediateDirectories: true)
        try "DATABASE_URL='postgresql://postgres@/postgres?host=/x&port=1'\nCOMPASS_JWT_SECRET='\(secret)'\n"
            .write(to: root.appendingPathComponent(".data/compass.env"), atomically: true, encoding: .utf8)
        return (root, nested)
    }

    @Test func withoutTheVariableTheSecretMakeRunWroteIsFoundFromBelow() throws {
        let (root, nested) = try Self.checkout()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try JWTSecretSource.resolve(environment: [:], from: nested) == Self.secret)
        #expect(try JWTSecretSource.resolve(environment: ["COMPASS_JWT_SECRET": "explicit-secret-0123456789abcdef0123"], from: nested)
            == "explicit-secret-0123456789abcdef0123", "the variable wins")
    }

    @Test func missingEmptyAndShortSecretsSayWhatIsWrong() throws {
        let empty = FileManager.default.temporaryDirectory
        #expect { try JWTSecretSource.resolve(environment: [:], from: URL(fileURLWithPath: "/")) } throws: { error in
            "\(error)".contains("COMPASS_JWT_SECRET is not set") && "\(error)".contains(".data/compass.env")
        }
        #expect { try JWTSecretSource.resolve(environment: ["COMPASS_JWT_SECRET": ""], from: empty) } throws: { error in
            "\(error)" == "COMPASS_JWT_SECRET is empty: set it to the worker's secret"
        }
        #expect { try JWTSecretSource.resolve(environment: ["COMPASS_JWT_SECRET": "too-short"], from: empty) } throws: { error in
            "\(error)" == "COMPASS_JWT_SECRET is 9 bytes long; HS256 needs at least 32 bytes"
        }
    }

    @Test func tokenAndKeysPrintJSONAndTheVersionIsPrinted() async throws {
        let environment = ["COMPASS_JWT_SECRET": Self.secret]
        let keys = try await CompassBinary.run(["keys", "--json"], database: nil, environment: environment)
        #expect(keys.status == 0, "\(keys.stderr)")
        #expect(try keys.json().keys.sorted() == ["anon", "service_role"])
        let token = try await CompassBinary.run(
            ["token", "--user", "a1000000-0000-4000-8000-000000000003", "--json"], database: nil, environment: environment)
        #expect(token.status == 0, "\(token.stderr)")
        #expect((try token.json()["token"] as? String)?.split(separator: ".").count == 3)
        let version = try await CompassBinary.run(["--version"], database: nil)
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).first?.isNumber == true)
    }
}

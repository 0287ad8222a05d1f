import ArgumentParser
import CompassTokens
import Foundation

/// `compass keys`: the project's anon and service_role API keys for the worker's secret (see ``JWTSecretSource``).
///
/// ```sh
/// compass keys            # anon=…  service_role=…
/// compass keys --anon     # only the anon key
/// compass keys --json     # {"anon": …, "service_role": …}
/// compass keys --new-signing-key   # {"keys":[{…ES256 private JWK…}]} for COMPASS_JWT_SIGNING_KEYS
/// ```
/// The keys are deterministic (``APIKeys``), so they match what the worker accepts. No database
/// is involved, so there is no `--database-url`.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Print the anon and service_role API keys for COMPASS_JWT_SECRET (or make run's .data/compass.env).")

    @Flag(help: "Print only the anon key.")
    var anon = false

    @Flag(help: "Print one JSON object (with --anon: {\"anon\": …}).")
    var json = false

    @Flag(help: "Print a new ES256 signing key as a JWK set for COMPASS_JWT_SIGNING_KEYS (it holds the private key).")
    var newSigningKey = false

    func run() async throws {
        if newSigningKey {
            print(#"{"keys":["# + SigningKey.newES256JWK() + "]}")
            return
        }
        let secret = try JWTSecretSource.resolve()
        let keys: APIKeys
        do {
            keys = try APIKeys(secret: secret)
        } catch {
            throw CLIFailure.badInput("COMPASS_JWT_SECRET is not usable as an HS256 secret")
        }
        if json {
            try Output.json(anon ? ["anon": keys.anon] : ["anon": keys.anon, "service_role": keys.serviceRole])
        } else if anon {
            print(keys.anon)
        } else {
            print("anon=\(keys.anon)")
            print("service_role=\(keys.serviceRole)")
        }
    }
}

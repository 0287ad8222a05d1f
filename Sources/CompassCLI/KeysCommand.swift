import ArgumentParser
import CompassTokens
import Foundation

/// `compass keys`: the project's anon and service_role API keys for `COMPASS_JWT_SECRET`.
///
/// ```sh
/// compass keys            # anon=…  service_role=…
/// compass keys --anon     # only the anon key
/// ```
/// The keys are deterministic (``APIKeys``), so they match what the worker accepts.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Print the anon and service_role API keys for COMPASS_JWT_SECRET.")

    @Flag(help: "Print only the anon key.")
    var anon = false

    func run() async throws {
        guard let secret = ProcessInfo.processInfo.environment["COMPASS_JWT_SECRET"], !secret.isEmpty else {
            throw CLIFailure.badInput("COMPASS_JWT_SECRET is not set: the keys are signed with the worker's secret")
        }
        let keys: APIKeys
        do {
            keys = try APIKeys(secret: secret)
        } catch {
            throw CLIFailure.badInput("COMPASS_JWT_SECRET is not usable as an HS256 secret")
        }
        if anon {
            print(keys.anon)
        } else {
            print("anon=\(keys.anon)")
            print("service_role=\(keys.serviceRole)")
        }
    }
}

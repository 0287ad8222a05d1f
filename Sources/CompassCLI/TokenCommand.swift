import ArgumentParser

/// Placeholder until `compass token` lands (another engineer owns this file).
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "token", abstract: "Mint a JWT for the worker (not built yet).")

    func run() async throws {
        throw CLIFailure.runtime("compass token is not built yet")
    }
}

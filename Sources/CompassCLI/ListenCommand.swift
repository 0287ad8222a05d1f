import ArgumentParser

/// Placeholder until `compass listen` lands (another engineer owns this file).
struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "listen", abstract: "Tail realtime events (not built yet).")

    func run() async throws {
        throw CLIFailure.runtime("compass listen is not built yet")
    }
}

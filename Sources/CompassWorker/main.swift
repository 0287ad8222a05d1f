import CompassData
import CompassHTTP
import CompassServer
import Foundation
import Logging

// compass-worker: Supabase's Auth, REST and Realtime APIs and the apps' /api on one port.
// Settings come from the environment (see ServerConfiguration); a malformed one exits 2 naming
// it, an address it cannot listen on exits 1 naming the host, the port and the variables.
// SIGTERM or SIGINT shut it down gracefully.

if CommandLine.arguments.dropFirst().contains(where: { $0 == "--version" || $0 == "-V" }) {
    print("compass-worker \(CompassVersion.current)")
    exit(0)
}

let configuration: ServerConfiguration
do {
    configuration = try ServerConfiguration(environment: ProcessInfo.processInfo.environment)
} catch {
    FileHandle.standardError.write(Data("compass-worker: \(error)\n".utf8))
    exit(2)
}

let logLevel = configuration.logLevel
let logFormat = configuration.logFormat
LoggingSystem.bootstrap { label in
    WorkerLogHandler(label: label, format: logFormat, level: logLevel)
}
let logger: Logger = {
    var logger = Logger(label: "compass.worker")
    logger.logLevel = logLevel
    return logger
}()

do {
    let server = try await CompassServer(configuration: configuration, logger: logger)
    try await server.run(onServerRunning: { channel in
        let port = channel.localAddress?.port ?? configuration.port
        logger.info(
            "listening",
            metadata: ["url": "\(configuration.realtimeURL(port: port))", "version": "\(CompassVersion.current)"])
    })
} catch {
    if let failure = ListenFailure(error, host: configuration.host, port: configuration.port) {
        FileHandle.standardError.write(Data("compass-worker: \(failure)\n".utf8))
        exit(1)
    }
    logger.critical("compass-worker stopped", metadata: ["error": "\(error)"])
    exit(1)
}

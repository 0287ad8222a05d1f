import CompassHTTP
import CompassServer
import Foundation
import Logging

// compass-worker: Supabase's Auth, REST and Realtime APIs and the apps' /api on one port.
// Settings come from the environment (see ServerConfiguration); a malformed one exits 2 naming
// it. SIGTERM or SIGINT shut it down gracefully.

let configuration: ServerConfiguration
do {
    configuration = try ServerConfiguration(environment: ProcessInfo.processInfo.environment)
} catch {
    FileHandle.standardError.write(Data("compass-worker: \(error)\n".utf8))
    exit(2)
}

let logLevel = configuration.logLevel
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = logLevel
    return handler
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
        logger.info("listening", metadata: ["url": "\(configuration.realtimeURL(port: port))"])
    })
} catch {
    logger.critical("compass-worker stopped", metadata: ["error": "\(error)"])
    exit(1)
}

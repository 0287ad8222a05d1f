import CompassRealtime
import CompassServer
import Foundation
import Logging

// compass-worker: Supabase's Auth, REST and Realtime APIs and the apps' /api on one port.
// Settings come from the environment (see CompassServerConfiguration); SIGTERM or SIGINT shut it
// down gracefully.

let serverConfiguration: CompassServerConfiguration
do {
    serverConfiguration = try CompassServerConfiguration(environment: ProcessInfo.processInfo.environment)
} catch {
    FileHandle.standardError.write(Data("compass-worker: \(error)\n".utf8))
    exit(2)
}

let configuration = serverConfiguration.worker
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = configuration.logLevel
    return handler
}
let logger: Logger = {
    var logger = Logger(label: "compass.worker")
    logger.logLevel = configuration.logLevel
    return logger
}()

do {
    let worker = try await CompassServer(configuration: serverConfiguration, logger: logger)
    let announce = logger
    let settings = configuration
    try await worker.run(onServerRunning: { channel in
        let port = channel.localAddress?.port ?? settings.port
        announce.info("listening", metadata: ["url": "\(settings.clientURL(port: port))"])
    })
} catch {
    logger.critical("compass-worker stopped", metadata: ["error": "\(error)"])
    exit(1)
}

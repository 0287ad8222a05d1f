// RealtimeBenchmark: commit-to-client latency, RLS-checked deliveries per second, worker
// memory, and insert throughput with and without the realtime trigger.
//
//   swift build -c release --scratch-path ../../.build-realtime --product compass-worker   (from the repo root)
//   cd Benchmarks/RealtimeBenchmark && swift run -c release RealtimeBenchmark --clients 100,1000,5000
//
// Options: --clients N,N,…  --rate ROWS_PER_SECOND (paced phase)  --seconds S (each phase)
//          --workers A,B  (A/B: each client count runs each of these worker binaries in turn, same run)
// Environment: WORKER_BINARY (default: the repo's .build-realtime/release/compass-worker,
// then .build/release/compass-worker), BENCH_DATABASE_URL (a superuser URL; default: a
// private cluster started with scripts/pg-cluster and removed afterwards).
//
// Every client i is a separate WebSocket connection signed in as user i and subscribed to
// INSERTs on public.activities with `user_id=eq.<user i>`: each row reaches exactly one
// client, after the worker's RLS check under that user's claims.
import Foundation

let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

struct Options {
    var clientCounts = [100, 1000, 5000]
    var pacedRate = 500
    var phaseSeconds = 10.0
    /// Worker binaries to compare in one run (empty: the one `workerBinary()` finds).
    var workers: [String] = []

    init(arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--clients":
                clientCounts = (iterator.next() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--rate":
                pacedRate = Int(iterator.next() ?? "") ?? pacedRate
            case "--seconds":
                phaseSeconds = Double(iterator.next() ?? "") ?? phaseSeconds
            case "--workers":
                workers = (iterator.next() ?? "").split(separator: ",").map(String.init)
            default:
                throw BenchmarkError("unknown argument \(argument)")
            }
        }
        guard !clientCounts.isEmpty, clientCounts.allSatisfy({ $0 > 0 }) else { throw BenchmarkError("--clients needs counts") }
    }
}

struct ScaleResult {
    var clients: Int
    /// The worker binary's file name (which build, in an A/B run).
    var worker = ""
    /// The 1-minute load average before and after the run.
    var load = ""
    var subscribeSeconds: Double
    var paced: Percentiles
    var pacedDelivered: Int
    var pacedSent: Int
    var saturatedDeliveriesPerSecond: Double
    var saturatedInsertsPerSecond: Double
    var saturated: Percentiles
    var saturatedDelivered: Int
    var saturatedSent: Int
    var idleMemory: Double
    var peakMemory: Double
    /// CPU microseconds per saturated delivery: the worker, and its database sessions.
    var workerMicrosPerDelivery: Double?
    var sessionMicrosPerDelivery: Double?
    /// Checks per `realtime.visible_rows` call while saturated (nil: the worker does not report it).
    var batchSizes: MetricHistogram?
}

func workerBinary() throws -> String {
    if let given = ProcessInfo.processInfo.environment["WORKER_BINARY"], !given.isEmpty { return given }
    for candidate in [".build-realtime/release/compass-worker", ".build/release/compass-worker"] {
        let path = repositoryRoot.appendingPathComponent(candidate).path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw BenchmarkError("no release compass-worker: build it with `swift build -c release --product compass-worker`, or set WORKER_BINARY")
}

func waitForDeliveries(_ ids: Set<String>, log: DeliveryLog, quietFor quiet: Duration, atMost limit: Duration) async throws {
    let deadline = ContinuousClock.now + limit
    var last = -1
    var lastChange = ContinuousClock.now
    while ContinuousClock.now < deadline {
        let delivered = log.deliveredCount(of: ids)
        if delivered == ids.count { return }
        if delivered != last {
            last = delivered
            lastChange = .now
        } else if ContinuousClock.now - lastChange > quiet {
            return
        }
        try await Task.sleep(for: .milliseconds(100))
    }
}

func runScale(clients: Int, options: Options, database: BenchmarkDatabase, binary: String, secret: String) async throws -> ScaleResult {
    let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("bench-worker-\(clients).log").path
    let worker = try await WorkerProcess.start(binary: binary, databaseURL: database.url, secret: secret, logPath: logPath)
    let log = DeliveryLog()
    let subscribeStart = ContinuousClock.now
    let connected = try await BenchmarkClients.connect(count: clients, port: worker.port, secret: secret, log: log)
    let subscribeSeconds = (ContinuousClock.now - subscribeStart).seconds
    try await Task.sleep(for: .seconds(1))
    let idleMemory = worker.process.memory.resident
    let inserter = Inserter(database: database, users: clients, actorIndex: options.clientCounts.max()!)

    // Paced: a steady stream the worker can keep up with; latency is what a user feels.
    let pacedIDs = try await inserter.paced(
        rate: options.pacedRate, duration: .seconds(options.phaseSeconds), connections: 4, log: log)
    try await waitForDeliveries(pacedIDs, log: log, quietFor: .seconds(3), atMost: .seconds(30))
    let paced = log.summary(of: pacedIDs)

    // Saturated: writers as fast as they go; deliveries per second is the fan-out's ceiling.
    let monitor = try await database.connect()
    let workerCPUBefore = CPUTime.seconds(of: worker.process.pid)
    let sessionCPUBefore = CPUTime.snapshot(try await CPUTime.workerSessionPIDs(monitor))
    let batchesBefore = await worker.histogram("realtime_visibility_checks")
    let saturatedStart = ContinuousClock.now
    let saturatedIDs = try await inserter.flat(
        out: .seconds(options.phaseSeconds), batch: 50, connections: 3, log: log)
    let insertSeconds = (ContinuousClock.now - saturatedStart).seconds
    try await waitForDeliveries(saturatedIDs, log: log, quietFor: .seconds(5), atMost: .seconds(120))
    let saturated = log.summary(of: saturatedIDs)
    let workerCPU = CPUTime.seconds(of: worker.process.pid).flatMap { after in workerCPUBefore.map { after - $0 } }
    let sessionCPU = CPUTime.used(by: try await CPUTime.workerSessionPIDs(monitor), since: sessionCPUBefore)
    let batchSizes = await worker.histogram("realtime_visibility_checks")?.since(batchesBefore)
    await monitor.close()
    let perDelivery = { (seconds: Double?) in seconds.map { $0 * 1_000_000 / Double(max(saturated.delivered, 1)) } }
    let elapsed = ((saturated.lastArrival ?? .now) - saturatedStart).seconds
    let peakMemory = worker.process.memory.peak

    if !log.failures.isEmpty { print("client failures (first \(log.failures.count)): \(log.failures.prefix(3))") }
    connected.disconnect()
    await worker.stop()
    return ScaleResult(
        clients: clients, subscribeSeconds: subscribeSeconds,
        paced: Percentiles(paced.latencies), pacedDelivered: paced.delivered, pacedSent: pacedIDs.count,
        saturatedDeliveriesPerSecond: Double(saturated.delivered) / max(elapsed, 0.001),
        saturatedInsertsPerSecond: Double(saturatedIDs.count) / insertSeconds,
        saturated: Percentiles(saturated.latencies), saturatedDelivered: saturated.delivered, saturatedSent: saturatedIDs.count,
        idleMemory: idleMemory, peakMemory: peakMemory,
        workerMicrosPerDelivery: perDelivery(workerCPU), sessionMicrosPerDelivery: perDelivery(sessionCPU),
        batchSizes: batchSizes)
}

/// Rows per second written with and without the realtime trigger (no worker running).
func insertThroughput(database: BenchmarkDatabase, users: Int, seconds: Double) async throws -> [(String, Double, Double)] {
    let inserter = Inserter(database: database, users: users, actorIndex: users)
    let admin = try await database.connect()
    var rows: [(String, Double, Double)] = []
    for (label, batch, connections) in [("1 row per transaction, 4 writers", 1, 4), ("50 rows per INSERT, 3 writers", 50, 3)] {
        var rates: [Double] = []
        for enabled in [true, false] {
            try await admin.query(
                enabled
                    ? "SELECT realtime.enable('public.activities')" : "SELECT realtime.disable('public.activities')")
            let start = ContinuousClock.now
            let ids = try await inserter.flat(out: .seconds(seconds), batch: batch, connections: connections, log: nil)
            rates.append(Double(ids.count) / (ContinuousClock.now - start).seconds)
        }
        rows.append((label, rates[0], rates[1]))
    }
    try await admin.query("SELECT realtime.enable('public.activities')")
    try await admin.query("TRUNCATE realtime.changes")
    await admin.close()
    return rows
}

/// The machine's 1-minute load average (other builds share it: the number to quote beside the results).
func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
    return String(text.split(separator: " ").first ?? "?")
}

/// "mean (p50 ≤ B, p95 ≤ B) over N calls" of the checks per visible_rows call, or n/a.
func batchCell(_ result: ScaleResult) -> String {
    guard let sizes = result.batchSizes, sizes.count > 0 else { return "n/a" }
    func bound(_ fraction: Double) -> String { sizes.quantileBound(fraction).map { $0.isFinite ? format($0, decimals: 0) : "more" } ?? "?" }
    return format(sizes.sum / sizes.count, decimals: 1) + " (p50 ≤ \(bound(0.5)), p95 ≤ \(bound(0.95))) over \(format(sizes.count, decimals: 0)) calls"
}

/// "worker + sessions" CPU µs per delivery, or n/a off this machine.
func cpuCell(_ result: ScaleResult) -> String {
    guard let worker = result.workerMicrosPerDelivery else { return "n/a" }
    guard let sessions = result.sessionMicrosPerDelivery else { return format(worker, decimals: 0) + " + n/a" }
    return format(worker, decimals: 0) + " + " + format(sessions, decimals: 0)
}

func printReport(_ results: [ScaleResult], inserts: [(String, Double, Double)], options: Options) {
    func pad(_ text: String, _ width: Int) -> String { text.count >= width ? text : text + String(repeating: " ", count: width - text.count) }
    let header = [
        "clients", "worker", "load", "subscribe", "paced rows/s", "delivered", "p50 ms", "p95 ms", "p99 ms", "saturated deliveries/s",
        "inserts/s", "sat. p50 ms", "sat. p95 ms", "CPU µs/delivery (worker + db)", "RSS idle MiB", "RSS peak MiB",
        "checks per visible_rows call (saturated)",
    ]
    let rows = results.map { result -> [String] in
        [
            String(result.clients), result.worker, result.load, format(result.subscribeSeconds) + " s", String(options.pacedRate),
            "\(result.pacedDelivered)/\(result.pacedSent)", format(result.paced.p50), format(result.paced.p95),
            format(result.paced.p99), format(result.saturatedDeliveriesPerSecond, decimals: 0) + " (\(result.saturatedDelivered)/\(result.saturatedSent))",
            format(result.saturatedInsertsPerSecond, decimals: 0), format(result.saturated.p50, decimals: 0),
            format(result.saturated.p95, decimals: 0), cpuCell(result), format(result.idleMemory), format(result.peakMemory),
            batchCell(result),
        ]
    }
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
    print("")
    print("Realtime fan-out (each client subscribed to its own rows, RLS-checked per row)")
    print(zip(header, widths).map { pad($0, $1) }.joined(separator: "  "))
    print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
    for row in rows { print(zip(row, widths).map { pad($0, $1) }.joined(separator: "  ")) }
    print("")
    print("Insert throughput into public.activities (rows/s, no worker running)")
    for (label, with, without) in inserts {
        print("  \(pad(label, 36))  with trigger \(format(with, decimals: 0))  without \(format(without, decimals: 0))  (\(format(100 * (1 - with / without), decimals: 0))% cost)")
    }
    print("")
    for result in results {
        guard let worker = result.workerMicrosPerDelivery, let sessions = result.sessionMicrosPerDelivery else { continue }
        print(
            "\(result.clients) clients (\(result.worker)): fan-out costs \(format(worker + sessions, decimals: 0)) CPU µs per delivery, "
                + "≈ \(format(1_000_000 / (worker + sessions), decimals: 0)) RLS-checked deliveries per CPU-core second")
    }
    print("")
    print("Anchor: Supabase Realtime Postgres Changes tops out at 3,000-4,000 RLS-checked msgs/s, p95 ≈ 230 ms at 500 clients;")
    print("the goal here is 10x the throughput (30,000-40,000/s) at a tenth of the latency (p95 ≈ 23 ms).")
}

let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    print("usage: RealtimeBenchmark [--clients 100,1000,5000] [--rate 500] [--seconds 10] [--workers A,B]\n\(error)")
    exit(2)
}
let secret = "benchmark-secret-0123456789abcdef0123456789"
let binaries: [String]
do {
    binaries = options.workers.isEmpty ? [try workerBinary()] : options.workers
} catch {
    print(error)
    exit(1)
}
print("workers: \(binaries.joined(separator: ", "))")
let database = try await BenchmarkDatabase.prepare(repositoryRoot: repositoryRoot)
let maximum = options.clientCounts.max()!
try await database.createUsers(maximum + 1)
print("database ready; \(maximum + 1) users")
var results: [ScaleResult] = []
for clients in options.clientCounts {
    for binary in binaries {
        print("running \(clients) clients on \(binary) …")
        let loadBefore = loadAverage()
        do {
            var result = try await runScale(clients: clients, options: options, database: database, binary: binary, secret: secret)
            result.worker = URL(fileURLWithPath: binary).lastPathComponent
            result.load = loadBefore + "→" + loadAverage()
            results.append(result)
        } catch {
            print("  \(clients) clients failed: \(error)")
        }
    }
}
print("measuring insert throughput …")
let inserts = try await insertThroughput(database: database, users: maximum, seconds: min(options.phaseSeconds, 5))
printReport(results, inserts: inserts, options: options)
await database.stop(repositoryRoot: repositoryRoot)

import CompassDomain
import Foundation
import Logging
import Postgres

/// Feed latency on the scale data set (`compass seed scale --users 10000`).
///
/// ```sh
/// swift run -c release FeedBenchmark --database-url "$DATABASE_URL" [--users 50] [--iterations 10]
/// ```
/// Picks users with 50+ rows in every feed source, loads each one's feed with each
/// strategy (interleaved, after a warm-up), and prints p50/p99 latency and round trips per
/// feed, with the libpq floor and PostgresNIO peer beside it (ratios, since the machine is noisy).
@main
struct FeedBenchmark {
    struct Options {
        var databaseURL: String?
        var users = 50
        var iterations = 10

        init(_ arguments: [String]) throws {
            var rest = arguments[...]
            databaseURL = ProcessInfo.processInfo.environment["DATABASE_URL"]
            while let flag = rest.popFirst() {
                guard let value = rest.popFirst() else { throw UsageError("\(flag) needs a value") }
                switch flag {
                case "--database-url": databaseURL = value
                case "--users": users = try Self.positive(value, flag)
                case "--iterations": iterations = try Self.positive(value, flag)
                default: throw UsageError("unknown option \(flag)")
                }
            }
        }

        static func positive(_ text: String, _ flag: String) throws -> Int {
            guard let value = Int(text), value > 0 else { throw UsageError("\(flag) must be a positive number, got \(text)") }
            return value
        }
    }

    struct UsageError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func main() async {
        do {
            try await run(Options(Array(CommandLine.arguments.dropFirst())))
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(error is UsageError ? 2 : 1)
        }
    }

    static func run(_ options: Options) async throws {
        guard let url = options.databaseURL else { throw UsageError("pass --database-url or set DATABASE_URL") }
        var logger = Logger(label: "feed-benchmark")
        logger.logLevel = .warning
        let configuration = try PostgresConfiguration(url: url)
        let connection = try await PostgresConnection.connect(to: configuration, logger: logger)
        let ids = try await heavyUsers(limit: options.users, on: connection)
        guard !ids.isEmpty else {
            throw UsageError("no user has 50+ rows in every feed source: run `compass seed scale --users 10000` first")
        }
        let totals = try await connection.query(
            """
            SELECT (SELECT count(*) FROM interactions) + (SELECT count(*) FROM school_status_history)
                 + (SELECT count(*) FROM documents) + (SELECT count(*) FROM activities) + (SELECT count(*) FROM likes)
                 + (SELECT count(*) FROM follows)
            """)
        var users: [FeedUser] = []
        for id in ids { users.append(try await FeedUser.recording(id, on: connection)) }
        let peer = PostgresNIOPeer(
            host: configuration.host, port: Int(configuration.port) ?? 5432, user: configuration.user,
            password: configuration.value(for: "password"), database: configuration.database, logger: logger)
        let peerRun = Task { await peer.client.run() }
        defer { peerRun.cancel() }
        print("Feed benchmark: \(users.count) users with 50+ rows per source, \(options.iterations) loads each per strategy")
        print("database: \(connection.configuration.endpoint)/\(connection.configuration.database), "
              + "\(try totals[0].decode(Int.self, at: 0)) rows in the big tables")
        // Warm-up: every strategy once per user (caches, plans).
        for user in users { for strategy in FeedStrategy.allCases { _ = try await strategy.load(user, on: connection, peer: peer) } }
        var samples: [FeedStrategy: [Duration]] = [:]
        var roundTrips: [FeedStrategy: Int] = [:]
        var events = 0
        let clock = ContinuousClock()
        for _ in 0..<options.iterations {
            for user in users {
                for strategy in FeedStrategy.allCases {
                    let before = await connection.roundTrips
                    let start = clock.now
                    let count = try await strategy.load(user, on: connection, peer: peer)
                    if strategy == .pipelined { events = count }
                    samples[strategy, default: []].append(clock.now - start)
                    roundTrips[strategy, default: 0] += await connection.roundTrips - before
                }
            }
        }
        let loads = users.count * options.iterations
        print("events per feed: \(events) (3 × 50 merged)")
        print()
        let header = ["strategy", "p50 ms", "p99 ms", "mean ms", "p50 ÷ floor", "round trips/feed"]
        let sorted = samples.mapValues { $0.sorted() }
        let floor = percentile(sorted[.libpqFloor] ?? [], 0.50)
        var rows: [[String]] = []
        for strategy in FeedStrategy.allCases {
            let times = sorted[strategy] ?? []
            let p50 = percentile(times, 0.50)
            rows.append([
                strategy.rawValue, milliseconds(p50), milliseconds(percentile(times, 0.99)),
                milliseconds(times.reduce(Duration.zero, +) / max(1, times.count)), ratio(p50, floor),
                strategy == .postgresNIO ? "-" : String(format: "%.1f", Double(roundTrips[strategy] ?? 0) / Double(loads)),
            ])
        }
        printTable(header, rows)
        let feed = percentile(sorted[.pipelined] ?? [], 0.50)
        let nio = percentile(sorted[.postgresNIO] ?? [], 0.50)
        print()
        print("the feed (pipelined) at p50: \(ratio(feed, floor)) the libpq floor, \(ratio(nio, feed)) faster than PostgresNIO")
        let merge = try await EventBuildingTiming.p50(users: users, on: connection, iterations: options.iterations)
        print("building its events alone (ActivityFeed.merge of the same users' rows, no database): p50 "
              + "\(milliseconds(merge)) ms, \(String(format: "%.0f", merge / feed * 100)) % of the feed's p50")
        await connection.close()
    }

    /// Users with at least 50 rows in each of the three feed sources.
    static func heavyUsers(limit: Int, on connection: PostgresConnection) async throws -> [UUID] {
        let rows = try await connection.query(
            """
            SELECT i.logged_by
              FROM (SELECT logged_by FROM interactions GROUP BY logged_by HAVING count(*) >= 50) AS i
              JOIN (SELECT changed_by FROM school_status_history GROUP BY changed_by HAVING count(*) >= 50) AS s
                ON s.changed_by = i.logged_by
              JOIN (SELECT user_id FROM documents GROUP BY user_id HAVING count(*) >= 50) AS d ON d.user_id = i.logged_by
             ORDER BY i.logged_by
             LIMIT \(limit)
            """)
        return try rows.map { try $0.decode(UUID.self, at: 0) }
    }

    static func percentile(_ sorted: [Duration], _ fraction: Double) -> Duration {
        guard !sorted.isEmpty else { return .zero }
        let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
        return sorted[max(0, index)]
    }

    static func ratio(_ duration: Duration, _ base: Duration) -> String {
        base == .zero ? "-" : String(format: "%.2f×", duration / base)
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.2f", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }

    static func printTable(_ header: [String], _ rows: [[String]]) {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        print(line(header))
        print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        rows.forEach { print(line($0)) }
    }
}

import CompassHTTP
import Postgres
import Prometheus
import Synchronization

/// Gauges of the server's connection pools (`compass_db_pool_connections{pool,state}`,
/// `compass_db_pool_waiting{pool}`) and the prepared-statement caches' hits and misses
/// (`compass_db_prepared_statements_total{result}`), read when `/metrics` is scraped.
final class PoolMetrics: Sendable {
    private struct Series: Sendable {
        let pool: PostgresPool
        let inUse: Gauge
        let idle: Gauge
        let waiting: Gauge
        let size: Gauge
    }

    private let series: [Series]
    private let statementHits: Counter
    private let statementMisses: Counter
    /// The totals already added to the counters (they only move forward, by the difference).
    private let reported = Mutex<(hits: Int, misses: Int)>((0, 0))

    /// One set of gauges per named pool (`api`, `auth`, `realtime`, `ready`).
    init(pools: [(name: String, pool: PostgresPool)], registry: PrometheusCollectorRegistry) {
        func name(_ metric: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "compass", metricName: metric, unitName: "", helpText: help)
        }
        let connections = name("db_pool_connections", "Open database connections by pool and state (in_use, idle).")
        series = pools.map { pool in
            Series(
                pool: pool.pool,
                inUse: registry.makeGauge(descriptor: connections, labels: [("pool", pool.name), ("state", "in_use")]),
                idle: registry.makeGauge(descriptor: connections, labels: [("pool", pool.name), ("state", "idle")]),
                waiting: registry.makeGauge(
                    descriptor: name("db_pool_waiting", "Requests waiting for a free connection, by pool."),
                    labels: [("pool", pool.name)]),
                size: registry.makeGauge(
                    descriptor: name("db_pool_size", "The most connections a pool opens."), labels: [("pool", pool.name)]))
        }
        let statements = MetricNameDescriptor(
            namespace: "compass", metricName: "db_prepared_statements", unitName: "total",
            helpText: "Statements sent by a name prepared earlier (hit) or prepared on first use (miss), every connection.")
        statementHits = registry.makeCounter(descriptor: statements, labels: [("result", "hit")])
        statementMisses = registry.makeCounter(descriptor: statements, labels: [("result", "miss")])
    }

    /// Sets every gauge to its pool's current usage.
    func refresh() async {
        for series in series {
            let usage = await series.pool.usage
            series.inUse.set(Double(usage.inUse))
            series.idle.set(Double(usage.idle))
            series.waiting.set(Double(usage.waiting))
            series.size.set(Double(series.pool.maximumConnections))
        }
        let totals = PostgresConnection.preparedStatementStatistics.totals
        let (newHits, newMisses) = reported.withLock { reported in
            defer { reported = totals }
            return (totals.hits - reported.hits, totals.misses - reported.misses)
        }
        if newHits > 0 { statementHits.increment(by: Int64(newHits)) }
        if newMisses > 0 { statementMisses.increment(by: Int64(newMisses)) }
    }
}

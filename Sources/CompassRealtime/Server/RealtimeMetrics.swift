import Foundation
import Prometheus

/// The realtime API's counters, served as Prometheus text at `/metrics`.
///
/// Each server instance owns its own registry (no process-global bootstrap), so tests can
/// run several servers side by side.
public final class RealtimeMetrics: Sendable {
    /// Where the metrics live (the server's registry, shared with the other APIs).
    public let registry: PrometheusCollectorRegistry
    let clients: Gauge
    let channels: Gauge
    let bindings: Gauge
    let changesReceived: Counter
    let changesUnwatched: Counter
    let eventsQueued: Counter
    let messagesSent: Counter
    let clientsDropped: Counter
    let databaseReconnects: Counter
    let commitToSend: DurationHistogram
    let visibilityChecks: ValueHistogram

    /// Registers every metric in `registry`.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "realtime", metricName: metric, unitName: unit, helpText: help)
        }
        clients = registry.makeGauge(descriptor: name("clients", "", "Connected WebSocket clients."))
        channels = registry.makeGauge(descriptor: name("channels", "", "Joined channels."))
        bindings = registry.makeGauge(descriptor: name("subscriptions", "", "postgres_changes bindings of joined channels."))
        changesReceived = registry.makeCounter(
            descriptor: name("changes_received", "total", "Row changes read from realtime.changes."))
        changesUnwatched = registry.makeCounter(
            descriptor: name("changes_unwatched", "total", "Row changes passed over unparsed: no channel watched their table."))
        eventsQueued = registry.makeCounter(
            descriptor: name("events_authorized", "total", "Change events that passed filters and RLS and were queued."))
        messagesSent = registry.makeCounter(descriptor: name("messages_sent", "total", "Frames written to clients."))
        clientsDropped = registry.makeCounter(
            descriptor: name("clients_dropped", "total", "Clients closed because their queue overflowed."))
        databaseReconnects = registry.makeCounter(
            descriptor: name("database_reconnects", "total", "Times the LISTEN connection came back after a drop."))
        commitToSend = registry.makeDurationHistogram(
            descriptor: name("commit_to_send", "seconds", "From the change's created_at to the frame being written to the socket."),
            buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000].map { Duration.milliseconds($0) })
        visibilityChecks = registry.makeValueHistogram(
            descriptor: name(
                "visibility_checks", "", "Checks per realtime.visible_rows call: one per (table, role and claims) group of a batch of changes."),
            buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096])
    }

    /// Records frames written now, each carrying a change recorded at that time (microseconds) or none.
    func recordSent(_ recordedAtMicroseconds: some Sequence<Int64?>) {
        let nowMicroseconds = Int64(Date().timeIntervalSince1970 * 1_000_000)
        var count: Int64 = 0
        for recorded in recordedAtMicroseconds {
            count += 1
            guard let recorded else { continue }
            commitToSend.record(.microseconds(max(0, nowMicroseconds - recorded)))
        }
        messagesSent.increment(by: count)
    }

    /// Sets the gauges to the subscription registry's current counts.
    public func refreshGauges(counts: (clients: Int, channels: Int, bindings: Int)) {
        clients.set(Double(counts.clients))
        channels.set(Double(counts.channels))
        bindings.set(Double(counts.bindings))
    }
}

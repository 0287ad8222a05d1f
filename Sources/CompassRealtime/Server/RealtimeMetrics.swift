import Foundation
import Prometheus

/// The worker's counters, served as Prometheus text at `/metrics`.
///
/// Each server instance owns its own registry (no process-global bootstrap), so tests can
/// run several servers side by side.
public final class RealtimeMetrics: Sendable {
    /// Where the metrics live.
    public let registry = PrometheusCollectorRegistry()
    let clients: Gauge
    let channels: Gauge
    let bindings: Gauge
    let changesReceived: Counter
    let eventsQueued: Counter
    let messagesSent: Counter
    let clientsDropped: Counter
    let databaseReconnects: Counter
    let commitToSend: DurationHistogram

    /// Registers every metric.
    public init() {
        clients = registry.makeGauge(name: "realtime_clients", help: "Connected WebSocket clients.")
        channels = registry.makeGauge(name: "realtime_channels", help: "Joined channels.")
        bindings = registry.makeGauge(name: "realtime_subscriptions", help: "postgres_changes bindings of joined channels.")
        changesReceived = registry.makeCounter(
            name: "realtime_changes_received_total", help: "Row changes read from realtime.changes.")
        eventsQueued = registry.makeCounter(
            name: "realtime_events_authorized_total", help: "Change events that passed filters and RLS and were queued.")
        messagesSent = registry.makeCounter(name: "realtime_messages_sent_total", help: "Frames written to clients.")
        clientsDropped = registry.makeCounter(
            name: "realtime_clients_dropped_total", help: "Clients closed because their queue overflowed.")
        databaseReconnects = registry.makeCounter(
            name: "realtime_database_reconnects_total", help: "Times the LISTEN connection came back after a drop.")
        commitToSend = registry.makeDurationHistogram(
            name: "realtime_commit_to_send_seconds",
            buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000].map { Duration.milliseconds($0) },
            help: "From the change's created_at to the frame being written to the socket.")
    }

    /// Records a frame carrying a change recorded at `recordedAtMicroseconds`, written now.
    func recordSent(recordedAtMicroseconds: Int64?) {
        messagesSent.increment()
        guard let recordedAtMicroseconds else { return }
        let nowMicroseconds = Int64(Date().timeIntervalSince1970 * 1_000_000)
        commitToSend.record(.microseconds(max(0, nowMicroseconds - recordedAtMicroseconds)))
    }

    /// The Prometheus text exposition, with the gauges refreshed from `registry`.
    public func render(counts: (clients: Int, channels: Int, bindings: Int)) -> String {
        clients.set(Double(counts.clients))
        channels.set(Double(counts.channels))
        bindings.set(Double(counts.bindings))
        return registry.emitToString()
    }
}

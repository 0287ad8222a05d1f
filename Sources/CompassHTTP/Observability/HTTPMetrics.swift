import Prometheus
import Synchronization

/// Every HTTP API's request metrics, by API, route template, method and status, plus sign-ins.
///
/// ```swift
/// let metrics = HTTPMetrics(registry: context.metrics)
/// metrics.record(api: "rest", route: "/rest/v1/{table}", method: "GET", status: 200, duration: .milliseconds(3))
/// ```
/// Labels come from route templates (bounded by the routes the server has), never raw paths.
/// Each series' collectors are looked up in the registry once and then kept here, so a request
/// costs one dictionary lookup under one lock and a few atomic increments.
public final class HTTPMetrics: Sendable {
    private struct RequestSeries: Hashable {
        var api: String, route: String, method: String, status: Int
    }
    /// A request series' counter and its route's histogram (shared by the route's series).
    private struct Collectors {
        var requests: Counter
        var latency: DurationHistogram
    }

    private let registry: PrometheusCollectorRegistry
    private let series = Mutex<[RequestSeries: Collectors]>([:])
    private let signIns = Mutex<[String: Counter]>([:])

    /// Seconds, from a cached reply to a slow REST query.
    static let buckets: [Duration] = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000].map {
        .microseconds(Int64($0 * 1000))
    }

    /// Collectors register lazily in `registry` (series appear once seen).
    public init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    /// Counts one answered request and its time.
    public func record(api: String, route: String, method: String, status: Int, duration: Duration) {
        let key = RequestSeries(api: api, route: route, method: method, status: status)
        let collectors = series.withLock { series in
            if let collectors = series[key] { return collectors }
            // First time this series is seen: the registry returns the route's existing histogram.
            let collectors = Collectors(
                requests: registry.makeCounter(
                    descriptor: Self.name("http_requests", "total", "HTTP requests answered, by API, route template, method and status."),
                    labels: [("api", api), ("route", route), ("method", method), ("status", String(status))]),
                latency: registry.makeDurationHistogram(
                    descriptor: Self.name(
                        "http_request_duration", "seconds", "Time from the request head to the reply head, by API and route template."),
                    labels: [("api", api), ("route", route)], buckets: Self.buckets))
            series[key] = collectors
            return collectors
        }
        collectors.requests.increment()
        collectors.latency.record(duration)
    }

    /// How a password sign-in ended.
    public enum SignInOutcome: String, Sendable, CaseIterable {
        case succeeded, failed, rateLimited = "rate_limited"
    }

    /// Counts one sign-in attempt by its outcome.
    public func recordSignIn(_ outcome: SignInOutcome) {
        let counter = signIns.withLock { series in
            if let counter = series[outcome.rawValue] { return counter }
            let counter = registry.makeCounter(
                descriptor: Self.name("auth_sign_ins", "total", "Password sign-ins (POST /auth/v1/token?grant_type=password) by outcome."),
                labels: [("outcome", outcome.rawValue)])
            series[outcome.rawValue] = counter
            return counter
        }
        counter.increment()
    }

    private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "compass", metricName: metric, unitName: unit, helpText: help)
    }
}

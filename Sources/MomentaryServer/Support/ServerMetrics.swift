import Prometheus
import Vapor

/// The server's Prometheus registry; every metric lives under the `momentary_` namespace.
/// Owned by the application (not a process-wide bootstrap) so each app, including each test app,
/// has its own counters.
final class ServerMetrics: Sendable {
    static let namespace = "momentary"
    let registry = PrometheusCollectorRegistry()

    /// `name` is the full name after the namespace, unit suffix included (`http_requests_total`).
    func counter(_ name: String, labels: [(String, String)] = [], help: String = "") -> Counter {
        registry.makeCounter(descriptor: descriptor(name, help), labels: labels)
    }

    func gauge(_ name: String, labels: [(String, String)] = [], help: String = "") -> Gauge {
        registry.makeGauge(descriptor: descriptor(name, help), labels: labels)
    }

    func durationHistogram(_ name: String, labels: [(String, String)] = [], help: String = "") -> DurationHistogram {
        registry.makeDurationHistogram(
            descriptor: descriptor(name, help), labels: labels,
            buckets: [.milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
                      .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10)])
    }

    func render() -> String { registry.emitToString() }

    private func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        // The unit is already part of `name`; an empty unit adds nothing to the joined name.
        MetricNameDescriptor(namespace: Self.namespace, metricName: name, unitName: "", helpText: help)
    }
}

/// Counts requests and times them by route pattern (not raw path, which would explode the label set).
struct RequestMetricsMiddleware: AsyncMiddleware {
    let metrics: ServerMetrics

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next.respond(to: request)
        let route = request.route.map { "/" + $0.path.map(\.description).joined(separator: "/") } ?? "unmatched"
        let labels = [("method", request.method.rawValue), ("route", route), ("status", String(response.status.code))]
        metrics.counter("http_requests_total", labels: labels).increment()
        metrics.durationHistogram("http_request_duration_seconds", labels: [("method", request.method.rawValue), ("route", route)])
            .recordNanoseconds((ContinuousClock.now - started).nanoseconds)
        return response
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

extension Application {
    private struct MetricsKey: StorageKey {
        typealias Value = ServerMetrics
    }

    /// The application's metrics registry, installed by `configure(_:_:)` before any request runs.
    var metrics: ServerMetrics {
        get {
            guard let metrics = storage[MetricsKey.self] else {
                fatalError("configure(_:_:) installs the metrics registry before it is used")
            }
            return metrics
        }
        set { storage[MetricsKey.self] = newValue }
    }
}

extension Gauge {
    /// Sets a whole-number value; spares callers choosing between the Double and Int64 overloads.
    func set(_ value: Int) { set(Int64(value)) }
}

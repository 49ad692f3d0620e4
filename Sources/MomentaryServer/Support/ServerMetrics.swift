import Prometheus
import Vapor

/// The server's Prometheus registry; every metric lives under the `momentary_` namespace.
/// Owned by the application (not a process-wide bootstrap) so each app, including each test app,
/// has its own counters.
final class ServerMetrics: Sendable {
    static let namespace = "momentary"
    let registry = PrometheusCollectorRegistry()

    /// Every metric the server reports (name after the namespace) with its `# HELP` text. The
    /// registry insists that one name keeps one text, so the texts live here and nowhere else.
    static let descriptions: [String: String] = [
        "http_requests_total": "HTTP requests answered, by method, route pattern and status.",
        "http_request_duration_seconds": "Time taken to answer HTTP requests, by method and route pattern.",
        "signalling_wakes_total": "Times the signaller woke up to plan or send beeps.",
        "signalling_days_planned_total": "Participant-days of beeps planned.",
        "signalling_errors_total": "Signaller wake-ups that ended in an error.",
        "signalling_alert": "1 while a signalling safeguard has tripped (too many beeps due at once), else 0.",
        "beeps_sent_total": "Beeps handed to a push service, by its answer: accepted, rejected or unregistered.",
        "beeps_retried_total": "Beeps scheduled for another attempt after a refusal that may pass later.",
        "beeps_failed_total": "Beeps that could not be delivered, by reason.",
        "beeps_missed_total": "Beeps not sent because their time or the participant's hours had passed, by reason.",
        "beeps_cancelled_total": "Beeps cancelled before sending: participant withdrew or was restricted, or settings changed.",
        "beeps_due_refused_total": "Beeps refused by the safeguard against too many falling due at once.",
        "beeps_resent_total": "Beeps a stopped worker left mid-send, taken over and sent again with the same identity.",
        "beeps_expired_total": "Sent beeps whose answer window closed before anyone began to answer.",
        "reminders_sent_total": "Reminders handed to a push service, by its answer: accepted, rejected or unregistered.",
        "dispatch_latency_seconds": "Time from a beep's planned instant to its handing to the push service.",
        "response_batches_total": "Transactions committed by the response writer, each holding one or more submissions.",
        "response_batch_submissions_total": "Response submissions answered from committed batches (stored, already stored, or refused).",
        "response_batches_failed_total": "Response batches that failed as a whole and were tried again.",
        "connections_open": "Client connections the front door holds open now.",
        "connections_refused_total": "Connections refused by the front door, by reason: the server's limit or one address's limit.",
        "requests_timed_out_total": "Requests cut with 408 by the front door, by reason: headers not complete in time, or a body sent too slowly.",
    ]

    /// Starts every counter and gauge at 0 (with the label values known in advance), so a
    /// dashboard sees each series from the first scrape rather than after its first event.
    init() {
        for name in ["signalling_wakes_total", "signalling_days_planned_total", "signalling_errors_total",
                     "beeps_retried_total", "beeps_cancelled_total", "beeps_due_refused_total", "beeps_expired_total", "beeps_resent_total",
                     "response_batches_total", "response_batch_submissions_total", "response_batches_failed_total"] {
            _ = counter(name)
        }
        for outcome in ["accepted", "rejected", "unregistered"] {
            _ = counter("beeps_sent_total", labels: [("outcome", outcome)])
            _ = counter("reminders_sent_total", labels: [("outcome", outcome)])
        }
        _ = counter("beeps_failed_total", labels: [("reason", "unknown")])
        _ = counter("beeps_missed_total", labels: [("reason", "late")])
        gauge("signalling_alert").set(0)
        _ = durationHistogram("dispatch_latency_seconds")
    }

    /// `name` is the full name after the namespace, unit suffix included (`http_requests_total`).
    func counter(_ name: String, labels: [(String, String)] = []) -> Counter {
        registry.makeCounter(descriptor: descriptor(name), labels: labels)
    }

    func gauge(_ name: String, labels: [(String, String)] = []) -> Gauge {
        registry.makeGauge(descriptor: descriptor(name), labels: labels)
    }

    func durationHistogram(_ name: String, labels: [(String, String)] = []) -> DurationHistogram {
        registry.makeDurationHistogram(
            descriptor: descriptor(name), labels: labels,
            buckets: [.milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
                      .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10)])
    }

    func render() -> String { registry.emitToString() }

    private func descriptor(_ name: String) -> MetricNameDescriptor {
        // The unit is already part of `name`; an empty unit adds nothing to the joined name.
        MetricNameDescriptor(
            namespace: Self.namespace, metricName: name, unitName: "",
            helpText: Self.descriptions[name] ?? "Momentary metric \(name).")
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

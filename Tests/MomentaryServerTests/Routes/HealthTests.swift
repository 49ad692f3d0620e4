import Foundation
@testable import MomentaryServer
import Testing
import VaporTesting

@Suite("Health and metrics")
struct HealthTests {
    @Test("GET /healthz answers 200 with the database reachable")
    func healthIsOK() async throws {
        try await withTestApp { app, _ in
            try await app.testing().test(.GET, "healthz") { response in
                #expect(response.status == .ok)
                let body = try response.content.decode(HealthRoutes.Health.self)
                #expect(body.status == "ok")
                #expect(body.database == "ok")
                #expect(body.signalling == "off", "no signaller is installed in this app")
            }
        }
    }

    @Test("GET /metrics serves Prometheus text with request counters in the momentary namespace")
    func metricsCountRequests() async throws {
        try await withTestApp { app, _ in
            let tester = try app.testing()
            try await tester.test(.GET, "healthz") { _ in }
            try await tester.test(.GET, "metrics") { response in
                #expect(response.status == .ok)
                #expect(response.headers.contentType?.type == "text")
                let text = response.body.string
                #expect(text.contains(#"momentary_http_requests_total{method="GET",route="/healthz",status="200"} 1"#))
                #expect(text.contains("momentary_http_request_duration_seconds_bucket"))
            }
        }
    }

    @Test("an unknown path gets a JSON error body, not an HTML page")
    func unknownPathIsJSON() async throws {
        try await withTestApp { app, _ in
            try await app.testing().test(.GET, "no/such/page") { response in
                #expect(response.status == .notFound)
                #expect(response.headers.contentType == .json)
                #expect(response.body.string.contains(#""code":"not_found""#))
            }
        }
    }
}

@Suite("Wrong methods")
struct MethodNotAllowedTests {
    @Test("a known path with the wrong method answers 405 with Allow and the method_not_allowed code")
    func wrongMethod() async throws {
        try await withTestApp { app, _ in
            for (method, path, allow) in [
                (HTTPMethod.TRACE, "api/v1/status", "GET, HEAD"), (.GET, "api/v1/responses", "POST"),
                (.DELETE, "api/v1/beeps/6f1c0d2e-0000-4000-8000-000000000001/survey", "GET, HEAD"),
            ] {
                try await app.testing().test(method, path) { response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(response.headers.first(name: .allow) == allow, "\(method) \(path)")
                    #expect(response.body.string.contains("\"method_not_allowed\""))
                }
            }
            try await app.testing().test(.GET, "api/v1/no-such-thing") { #expect($0.status == .notFound) }
        }
    }
}

@Suite("Security headers and the metrics token")
struct SecurityHeadersTests {
    @Test("pages, API answers and errors carry nosniff, no framing and a policy without inline script or style")
    func everyAnswerIsHardened() async throws {
        try await withTestApp { app, _ in
            for path in ["signin", "healthz", "api/v1/status", "no/such/page"] {
                try await app.testing().test(.GET, path) { response in
                    #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff", "\(path)")
                    #expect(response.headers.first(name: "X-Frame-Options") == "DENY", "\(path)")
                    let policy = response.headers.first(name: "Content-Security-Policy") ?? ""
                    #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"), "\(path)")
                    #expect(!policy.contains("unsafe-inline"), "\(path): \(policy)")
                    #expect(response.headers.first(name: "Strict-Transport-Security") == nil, "no HSTS outside production")
                }
            }
            try await app.testing().test(.GET, "website.css") { response in
                #expect(response.status == .ok)
                #expect(response.headers.contentType?.subType == "css")
                #expect(response.body.string.contains("nav.study"), "the website's styles are served from this file")
            }
            try await app.testing().test(.GET, "app") { response in
                let policy = response.headers.first(name: "Content-Security-Policy") ?? ""
                #expect(policy.contains("style-src 'self';"), "the web app keeps its stricter policy: \(policy)")
            }
        }
    }

    @Test("the website's templates contain no inline script or style, so the policy breaks nothing")
    func templatesHaveNoInlineScript() throws {
        let views = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/MomentaryServer/Website/Views")
        for file in try FileManager.default.contentsOfDirectory(atPath: views.path) where file.hasSuffix(".leaf") {
            let text = try String(contentsOf: views.appendingPathComponent(file), encoding: .utf8).lowercased()
            // A script from this server (src=…, nothing inside) is what the policy allows; inline code is not.
            let scripts = text.components(separatedBy: "<script").dropFirst()
            #expect(scripts.allSatisfy { $0.range(of: #"^[^>]*\ssrc="[^"]+"[^>]*></script>"#, options: .regularExpression) != nil },
                    "\(file) has an inline script")
            #expect(!text.contains("<style") && !text.contains("style="), "\(file) has an inline style")
            #expect(text.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil, "\(file) has an inline event handler")
        }
    }

    @Test("with MOMENTARY_METRICS_TOKEN, /metrics wants the bearer token; /healthz stays open")
    func metricsToken() async throws {
        let token = "a-long-metrics-token-0123456789"
        try await withTestApp(adjusting: { $0.metricsToken = token }) { app, _ in
            try await app.testing().test(.GET, "metrics") { #expect($0.status == .unauthorized) }
            try await app.testing().test(.GET, "metrics", headers: ["Authorization": "Bearer wrong-token-of-some-length"]) {
                #expect($0.status == .unauthorized)
            }
            try await app.testing().test(.GET, "metrics", headers: ["Authorization": "Bearer \(token)"]) {
                #expect($0.status == .ok)
                #expect($0.body.string.contains("momentary_"))
            }
            try await app.testing().test(.GET, "healthz") { #expect($0.status == .ok) }
        }
    }

    @Test("in production, /metrics is not served without a token, and answers carry HSTS")
    func production() async throws {
        try await withTestApp(adjusting: { $0.environmentName = "production" }) { app, _ in
            try await app.testing().test(.GET, "metrics") { #expect($0.status == .notFound) }
            try await app.testing().test(.GET, "healthz") { response in
                #expect(response.status == .ok)
                #expect(response.headers.first(name: "Strict-Transport-Security") == "max-age=31536000")
            }
        }
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["MOMENTARY_METRICS_TOKEN": "short"], dataDirectoryOverride: TestScratch.file("metrics").path)
        }
    }
}

@Suite("Metrics are described and start at 0")
struct MetricsDescriptionTests {
    @Test("the front door's metrics, registered only by serve, have descriptions of their own")
    func frontDoorMetricsDescribed() {
        for name in ["connections_open", "connections_refused_total", "requests_timed_out_total"] {
            #expect(ServerMetrics.descriptions[name] != nil, "\(name)")
        }
    }

    @Test("before any event, /metrics already lists every counter at 0, each with # HELP and # TYPE")
    func describedFromTheStart() async throws {
        try await withTestApp { app, _ in
            try await app.testing().test(.GET, "metrics") { response in
                let text = response.body.string
                for line in [
                    "momentary_signalling_wakes_total 0", "momentary_beeps_cancelled_total 0",
                    #"momentary_beeps_sent_total{outcome="accepted"} 0"#, "momentary_signalling_alert 0",
                ] {
                    #expect(text.contains(line), "missing: \(line)")
                }
                let names = Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
                    line.split(whereSeparator: { $0 == "{" || $0 == " " }).first.map(String.init)
                }.map { $0.replacingOccurrences(of: #"_(bucket|sum|count)$"#, with: "", options: .regularExpression) })
                #expect(names.count >= 10)
                for name in names {
                    #expect(text.contains("# HELP \(name) "), "\(name) has no HELP line")
                    #expect(text.contains("# TYPE \(name) "), "\(name) has no TYPE line")
                }
                #expect(!text.contains("Momentary metric "), "a metric described only by its name")
            }
        }
    }
}

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

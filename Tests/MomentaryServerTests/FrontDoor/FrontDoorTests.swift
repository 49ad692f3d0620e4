import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import VaporTesting

/// The front door: slow clients are cut off, connections are limited,
/// the client's address is the door's to tell, and `/metrics` can have a port of its own.
@Suite("Server: the front door")
struct FrontDoorTests {
    @Test("clients trickling their headers are cut off with 408 after the header timeout, while /healthz answers")
    func trickledHeadersAreCutOff() async throws {
        try await withFrontDoor(adjusting: { $0.headerTimeoutSeconds = 1 }) { app, port, _ in
            var slow: [RawConnection] = []
            for _ in 0..<40 {
                let connection = try await RawConnection.open(port: port)
                await connection.send("GET /healthz HTTP/1.1\r\nHost: test\r\n")
                slow.append(connection)
            }
            let trickle = Task { [slow] in
                // A header line every 200 ms: never idle, never finished.
                for _ in 0..<40 {
                    for connection in slow where connection.isOpen { await connection.send("X-Slow: y\r\n") }
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
            let health = try await RawHTTP.send(URL(string: "http://127.0.0.1:\(port)")!, "GET", "/healthz", body: nil)
            #expect(health.status == 200, "a client that sends its request at once is served meanwhile")
            for connection in slow {
                #expect(await connection.closedByServer(within: .seconds(6)), "the trickling client is cut off")
                #expect(connection.text.hasPrefix("HTTP/1.1 408 Request Timeout"), "\(connection.text)")
                #expect(connection.text.contains("\"code\":\"request_timeout\""))
            }
            trickle.cancel()
            #expect(app.metrics.render().contains("momentary_requests_timed_out_total{reason=\"headers\"} 40"))
        }
    }

    @Test("a body that trickles is cut off with 408; a slow but steady upload is served")
    func bodiesMustKeepPace() async throws {
        try await withFrontDoor(adjusting: { $0.headerTimeoutSeconds = 1 }) { app, port, _ in
            let trickling = try await RawConnection.open(port: port)
            await trickling.send("POST /api/v1/participants HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n")
            var sent = 0
            while trickling.isOpen && sent < 60 {
                await trickling.send("          ")
                sent += 1
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(await trickling.closedByServer(within: .seconds(3)))
            #expect(trickling.text.hasPrefix("HTTP/1.1 408 Request Timeout"), "\(trickling.text)")
            #expect(trickling.text.contains("body arrived too slowly"))
            #expect(app.metrics.render().contains("momentary_requests_timed_out_total{reason=\"body\"} 1"))
        }
        // 60 KB over about 7 s: well past a 3 s timeout, yet every second brings more than 1 KiB.
        // (A door of its own with the longer timeout, so a test runner busy with the whole suite
        // cannot stall this sender for a whole stretch.)
        try await withFrontDoor(adjusting: { $0.headerTimeoutSeconds = 3 }) { _, port, _ in
            let steady = try await RawConnection.open(port: port)
            let body = "{" + String(repeating: " ", count: 60_000) + "}"
            await steady.send("POST /api/v1/participants HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
            let chunks = Array(body.utf8).chunked(into: 1_700)
            for chunk in chunks {
                await steady.send(String(decoding: chunk, as: UTF8.self))
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(await steady.receives("\r\n\r\n", within: .seconds(30)))
            #expect(steady.text.hasPrefix("HTTP/1.1 400 Bad Request"), "the server read the whole body and answered it: \(steady.text)")
            await steady.close()
        }
    }

    @Test("connections over the limit, in all or from one address, get 503 with Retry-After; a freed place is used again",
          arguments: [("in all", 3, 100, "limit"), ("per address", 100, 3, "address_limit")])
    func connectionLimits(_ name: String, total: Int, perAddress: Int, reason: String) async throws {
        try await withFrontDoor(adjusting: { $0.maxConnections = total; $0.maxConnectionsPerAddress = perAddress }) { app, port, _ in
            var held: [RawConnection] = []
            for _ in 0..<3 {
                // Each is served before the next opens: connections are admitted on several
                // threads, so two opened together may be counted in either order.
                let connection = try await RawConnection.open(port: port)
                await connection.send("GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
                #expect(await connection.receives("HTTP/1.1 200 OK", within: .seconds(30)))
                held.append(connection)
            }
            let refused = try await RawConnection.open(port: port)
            #expect(await refused.closedByServer(within: .seconds(30)))
            #expect(refused.text.hasPrefix("HTTP/1.1 503 Service Unavailable"), "\(refused.text)")
            #expect(refused.text.contains("Retry-After: 1"))
            #expect(app.metrics.render().contains("momentary_connections_refused_total{reason=\"\(reason)\"} 1"))

            await held[0].close()
            // The door frees the place when it sees the close, which a busy runner may delay.
            try await eventually("the door has seen the close") { openConnections(app) == 2 }
            let health = try await RawHTTP.send(URL(string: "http://127.0.0.1:\(port)")!, "GET", "/healthz", body: nil)
            #expect(health.status == 200)
            for connection in held { await connection.close() }
        }
    }

    /// The door's gauge of connections it holds open, read from the metrics page.
    private func openConnections(_ app: Application) -> Int? {
        let line = app.metrics.render().split(separator: "\n").first { $0.hasPrefix("momentary_connections_open ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) }
    }

    @Test("the client's address is the one the door saw, whatever the client claims in the door's own header")
    func clientAddressComesFromTheDoor() async throws {
        try await withFrontDoor { app, port, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            let base = URL(string: "http://127.0.0.1:\(port)")!
            let page = try await RawHTTP.fetch(base, "/signin")
            let html = String(decoding: page.body, as: UTF8.self)
            let token = try #require(html.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1)
            let cookie = try #require(page.headers["set-cookie"]?.split(separator: ";").first)
            let form = "_csrf=\(token)&email=\(WebsiteWorld.developer)&password=wrong-password"
            let answer = try await RawHTTP.send(base, "POST", "/signin", body: Data(form.utf8), headers: [
                "Content-Type": "application/x-www-form-urlencoded", "Cookie": String(cookie),
                FrontDoor.clientAddressHeader: "203.0.113.9", "X-Forwarded-For": "198.51.100.7",
            ])
            #expect(answer.status == 401)
            let event = try #require(try await AuditEvent.query(on: app.db).filter(\.$action == "sign in").first())
            #expect(event.address == "127.0.0.1")
        }
    }

    @Test("with --metrics-port, /metrics is served there without a token and nowhere else; that port serves nothing more")
    func metricsPort() async throws {
        try await withFrontDoor(adjusting: { $0.metricsPort = 0; $0.metricsToken = "a-token-of-sixteen-chars" }, metricsListener: true) { _, port, metricsPort in
            let main = URL(string: "http://127.0.0.1:\(port)")!
            let metrics = URL(string: "http://127.0.0.1:\(try #require(metricsPort))")!
            let scraped = try await RawHTTP.send(metrics, "GET", "/metrics", body: nil)
            #expect(scraped.status == 200)
            #expect(scraped.body.contains("momentary_connections_open"))
            #expect(try await RawHTTP.send(metrics, "GET", "/healthz", body: nil).status == 200)
            let other = try await RawHTTP.send(metrics, "GET", "/api/v1/status", body: nil)
            #expect(other.status == 404)
            #expect(other.body.contains("serves only /metrics and /healthz"))

            for headers in [[:], ["Authorization": "Bearer a-token-of-sixteen-chars"], [FrontDoor.listenerHeader: "metrics"]] {
                let refused = try await RawHTTP.send(main, "GET", "/metrics", body: nil, headers: headers)
                #expect(refused.status == 404, "the main port never serves metrics: \(headers)")
            }
        }
    }

    @Test("requests framed every way reach the server intact: a length, chunks, a body on TRACE, two in a row")
    func framingPassesThrough() async throws {
        try await withFrontDoor { _, port, _ in
            let json = #"{"delete_data": false}"#
            let requests = [
                "POST /api/v1/participants HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
                "POST /api/v1/participants HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n1\r\n}\r\n0\r\n\r\n",
                "TRACE /api/v1/withdraw HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n\r\n\(json)",
                "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n",
            ]
            let connection = try await RawConnection.open(port: port)
            await connection.send(requests.joined())
            // A generous wait: on a slow machine running the whole suite the four can take seconds.
            #expect(await connection.receives(#""status":"ok""#, within: .seconds(30)), "all four were answered in order: \(connection.text)")
            let statuses = connection.text.matches(of: /HTTP\/1.1 (\d{3})/).map { String($0.1) }
            #expect(statuses == ["400", "400", "405", "200"], "each body was read as its own request's: \(connection.text)")
            await connection.close()
        }
    }

    @Test("bytes that are not HTTP get a 400 in the API's error format, and the connection ends")
    func malformedRequests() async throws {
        try await withFrontDoor { _, port, _ in
            let connection = try await RawConnection.open(port: port)
            await connection.send("HELLO THERE\r\n\r\n")
            #expect(await connection.closedByServer(within: .seconds(30)))
            #expect(connection.text.hasPrefix("HTTP/1.1 400 Bad Request"), "\(connection.text)")
            #expect(connection.text.contains("\"code\":\"bad_request\""))
        }
    }

    @Test("MOMENTARY_HEADER_TIMEOUT_SECONDS and the connection limits are whole numbers in range")
    func configuration() throws {
        let directory = try TestScratch.folder("front-door").path
        let defaults = try Configuration.load(environment: [:], dataDirectoryOverride: directory)
        #expect(defaults.headerTimeoutSeconds == 10 && defaults.maxConnections == 4_096 && defaults.maxConnectionsPerAddress == 256)
        let set = try Configuration.load(environment: [
            "MOMENTARY_HEADER_TIMEOUT_SECONDS": "30", "MOMENTARY_MAX_CONNECTIONS": "500", "MOMENTARY_MAX_CONNECTIONS_PER_ADDRESS": "20",
        ], dataDirectoryOverride: directory)
        #expect(set.headerTimeoutSeconds == 30 && set.maxConnections == 500 && set.maxConnectionsPerAddress == 20)
        for (variable, bad) in [("MOMENTARY_HEADER_TIMEOUT_SECONDS", "0"), ("MOMENTARY_HEADER_TIMEOUT_SECONDS", "301"),
                                ("MOMENTARY_MAX_CONNECTIONS", "many"), ("MOMENTARY_MAX_CONNECTIONS_PER_ADDRESS", "0")] {
            #expect(throws: ConfigurationError.self, "\(variable)=\(bad) is refused") {
                try Configuration.load(environment: [variable: bad], dataDirectoryOverride: directory)
            }
        }
    }
}

/// A test application served as `momentary serve` serves it: Vapor on its private socket, the
/// door on a free loopback port (and a metrics listener when asked).
private func withFrontDoor(
    adjusting adjust: (inout Configuration) -> Void = { _ in }, metricsListener: Bool = false,
    _ body: (Application, Int, Int?) async throws -> Void
) async throws {
    try await withTestApp(adjusting: adjust) { app, configuration in
        let door = try FrontDoor(settings: .init(configuration), metrics: app.metrics)
        door.install(in: app)
        try await app.server.start()
        do {
            let port = try await door.open(hostname: "127.0.0.1", port: 0, listener: .main, on: app.eventLoopGroup)
            var metricsPort: Int?
            if metricsListener {
                metricsPort = try await door.open(hostname: "127.0.0.1", port: 0, listener: .metrics, on: app.eventLoopGroup)
            }
            try await body(app, port, metricsPort)
        } catch {
            await door.close()
            await app.server.shutdown()
            throw error
        }
        await door.close()
        await app.server.shutdown()
    }
}

private extension Array {
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

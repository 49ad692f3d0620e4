import Fluent
import Vapor

/// `GET /healthz` (is the database reachable, is there room on the disk?) and `GET /metrics` (Prometheus text format).
struct HealthRoutes: RouteCollection {
    struct Health: Content {
        /// `ok`; `alert` when a signalling safeguard tripped or its last wake failed; `unavailable`
        /// when the database cannot be reached or the disk is low (the only state answered 503: the server can still
        /// take answers during a signalling alert, so a load balancer must not drop it).
        let status: String
        let database: String
        /// `ok`, or `low` when the data directory has less free space than `MOMENTARY_MIN_FREE_DISK_MB`
        /// (answered 503: writes are about to fail).
        let disk: String
        let diskFreeMegabytes: Int?
        /// `running`, `stopped`, `alert` or `off` (no signaller in this process).
        let signalling: String
        /// What tripped, for an operator (the same text as the critical log line).
        let signallingAlert: String?
        let signallingLastWake: String?

        enum CodingKeys: String, CodingKey {
            case status, database, disk, signalling
            case diskFreeMegabytes = "disk_free_mb"
            case signallingAlert = "signalling_alert", signallingLastWake = "signalling_last_wake"
        }
    }

    func boot(routes: any RoutesBuilder) throws {
        routes.get("healthz") { request async throws -> Response in
            let databaseUp = await DatabaseSetup.isReachable(request.db)
            let signalling = await request.application.signalling.health()
            let signallingState = switch signalling {
            case nil: "off"
            case let health? where !health.isHealthy: "alert"
            case let health?: health.running ? "running" : "stopped"
            }
            let configuration = request.application.momentaryConfiguration
            let freeMegabytes = Self.freeMegabytes(at: configuration.dataDirectory)
            let diskLow = freeMegabytes.map { $0 < configuration.minimumFreeDiskMegabytes } ?? false
            let ready = databaseUp && !diskLow
            let status = !ready ? "unavailable" : signallingState == "alert" ? "alert" : "ok"
            let body = Health(
                status: status, database: databaseUp ? "ok" : "unreachable", disk: diskLow ? "low" : "ok",
                diskFreeMegabytes: freeMegabytes, signalling: signallingState,
                signallingAlert: signalling?.alert ?? signalling?.lastError,
                signallingLastWake: signalling?.lastWake.map { $0.formatted(.iso8601) })
            let response = Response(status: ready ? .ok : .serviceUnavailable)
            try response.content.encode(body, as: .json)
            return response
        }
        routes.get("metrics") { request -> Response in
            try Self.authorizeMetrics(request)
            var headers = HTTPHeaders()
            headers.contentType = HTTPMediaType(type: "text", subType: "plain", parameters: ["version": "0.0.4", "charset": "utf-8"])
            return Response(status: .ok, headers: headers, body: .init(string: request.application.metrics.render()))
        }
    }

    /// Free space for an unprivileged writer on the data directory's file system; nil if unknown.
    static func freeMegabytes(at directory: URL) -> Int? {
        var stats = statvfs()
        guard statvfs(directory.path, &stats) == 0 else { return nil }
        return Int((UInt64(stats.f_bavail) * UInt64(stats.f_frsize)) >> 20)
    }

    /// `/metrics` tells an outsider how busy the study is. With `serve --metrics-port` it is served
    /// on that port alone (kept from outsiders by where the port is reachable); otherwise, with
    /// `MOMENTARY_METRICS_TOKEN` set, it wants `Authorization: Bearer <token>`, and in production
    /// without a token it is not served.
    static func authorizeMetrics(_ request: Request) throws {
        let configuration = request.application.momentaryConfiguration
        if configuration.metricsPort != nil {
            guard ClientAddress.cameThroughMetricsPort(request) else {
                throw Abort(.notFound, reason: "Metrics are served on the metrics port only.")
            }
            return
        }
        guard let token = configuration.metricsToken else {
            if configuration.environmentName == "production" {
                throw Abort(.notFound, reason: "Metrics are served only with MOMENTARY_METRICS_TOKEN set.")
            }
            return
        }
        let given = request.headers.bearerAuthorization?.token ?? ""
        // Compared in constant time, so the token cannot be guessed a character at a time.
        guard given.utf8.count == token.utf8.count,
              zip(given.utf8, token.utf8).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0 else {
            throw Abort(.unauthorized, reason: "Send the metrics token as Authorization: Bearer <token>.")
        }
    }
}

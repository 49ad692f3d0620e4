import Fluent
import Vapor

/// `GET /healthz` (is the database reachable?) and `GET /metrics` (Prometheus text format).
struct HealthRoutes: RouteCollection {
    struct Health: Content {
        let status: String
        let database: String
    }

    func boot(routes: any RoutesBuilder) throws {
        routes.get("healthz") { request async throws -> Response in
            let databaseUp = await DatabaseSetup.isReachable(request.db)
            let body = Health(status: databaseUp ? "ok" : "unavailable", database: databaseUp ? "ok" : "unreachable")
            let response = Response(status: databaseUp ? .ok : .serviceUnavailable)
            try response.content.encode(body, as: .json)
            return response
        }
        routes.get("metrics") { request -> Response in
            var headers = HTTPHeaders()
            headers.contentType = HTTPMediaType(type: "text", subType: "plain", parameters: ["version": "0.0.4", "charset": "utf-8"])
            return Response(status: .ok, headers: headers, body: .init(string: request.application.metrics.render()))
        }
    }
}

import Fluent
import Foundation
import Vapor

/// `/audit`: the latest researcher actions, newest first, for those who manage researchers
/// (Developers by default); `?researcher=` narrows it to one email.
struct AuditRoutes: RouteCollection {
    static let shown = 500

    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.audit, use: list)
    }

    struct AuditPage: Encodable {
        let chrome: PageChrome
        let researcher: String
        let events: [Row]
        let limit: Int

        struct Row: Encodable {
            let time: String
            let researcher: String
            let action: String
            let target: String
            let outcome: String
            let address: String
        }
    }

    func list(request: Request) async throws -> Response {
        try request.require(.manageResearchers)
        let researcher = (request.query[String.self, at: "researcher"] ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        var query = AuditEvent.query(on: request.db).sort(\.$occurredAt, .descending).limit(Self.shown)
        if !researcher.isEmpty { query = query.filter(\.$researcherEmail == researcher) }
        let events = try await query.all().map { event in
            AuditPage.Row(
                time: ExportTimestamp.text(event.occurredAt), researcher: event.researcherEmail ?? "unknown",
                action: event.action, target: event.target, outcome: event.outcome, address: event.address)
        }
        return try await request.page("audit", AuditPage(
            chrome: PageChrome(request, title: "Audit log"), researcher: researcher, events: events, limit: Self.shown))
    }
}

import Fluent
import MomentaryCore
import Vapor

/// `/studies/:slug/webhooks`: the study's webhooks (address, events, how the last deliveries
/// went), a form to add one (its signing secret shown once) and a button to delete each.
struct WebhookRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.webhooks, use: show)
        routes.post(SiteRoute.webhooks, use: create)
        routes.post(SiteRoute.deleteWebhook, use: delete)
    }

    struct Page: Encodable {
        struct Row: Encodable {
            let id: String
            let url: String
            let events: String
            let created: String
        }
        struct Delivery: Encodable {
            let event: String
            let url: String
            let created: String
            let status: String
            let attempts: Int
            let answer: String
        }
        struct Choice: Encodable { let value: String; let label: String; let checked: Bool }
        let chrome: PageChrome
        let webhooks: [Row]
        let deliveries: [Delivery]
        let events: [Choice]
        let url: String
        let canEdit: Bool
        let problems: [String]
        let secret: String?
        let docs: String
    }

    struct Form: Content {
        var url: String?
        var events: [String]?
    }

    func show(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewStudies)
        return try await render(request, study: study, form: Form(), problems: [], secret: nil)
    }

    func create(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .editStudies)
        let form = try request.content.decode(Form.self)
        do {
            let (webhook, secret) = try await Webhooks.create(
                in: study, url: form.url ?? "", events: form.events ?? [], by: try request.researcher.email, on: request.db, now: request.now)
            let researcherID = try request.researcher.id
            request.logger.notice("Webhook \(webhook.id?.uuidString ?? "") of study “\(study.slug)” added by \(researcherID)")
            return try await render(request, study: study, form: Form(), problems: [], secret: secret, status: .created)
        } catch let refusal as Webhooks.Refusal {
            return try await render(request, study: study, form: form, problems: [refusal.description], secret: nil, status: .unprocessableEntity)
        }
    }

    func delete(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .editStudies)
        guard let id = request.parameters.get("webhookID", as: UUID.self),
              let webhook = try await Webhook.query(on: request.db).filter(\.$id == id).filter(\.$study.$id == study.requireID()).first() else {
            throw Abort(.notFound, reason: "This study has no such webhook.")
        }
        try await webhook.delete(on: request.db)
        return request.redirect(to: SiteRoute.webhooks.path(study.slug) + "?deleted=1")
    }

    private func render(_ request: Request, study: Study, form: Form, problems: [String], secret: String?, status: HTTPStatus = .ok) async throws -> Response {
        let webhooks = try await Webhook.query(on: request.db).filter(\.$study.$id == study.requireID()).sort(\.$createdAt).all()
        let urls = Dictionary(uniqueKeysWithValues: try webhooks.map { (try $0.requireID(), $0.url) })
        let ids = Array(urls.keys)
        let recent = ids.isEmpty ? [] : try await request.db.sql.raw("""
            SELECT webhook_id, event, created_at, status, attempts, last_status, last_error FROM webhook_deliveries
            WHERE webhook_id IN (\(binds: ids)) ORDER BY created_at DESC LIMIT 20
            """).all()
        let deliveries = try recent.map { row in
            let lastStatus = try row.decodeIfPresent(column: "last_status", as: Int.self)
            let lastError = try row.decodeIfPresent(column: "last_error", as: String.self)
            return Page.Delivery(
                event: try row.decode(column: "event", as: String.self),
                url: urls[try row.decode(column: "webhook_id", as: UUID.self)] ?? "",
                created: WebFormat.dateTime(try row.decode(column: "created_at", as: Date.self)),
                status: try row.decode(column: "status", as: String.self), attempts: try row.decode(column: "attempts", as: Int.self),
                answer: lastError ?? lastStatus.map { "HTTP \($0)" } ?? "—")
        }
        let chosen = Set(form.events ?? [])
        return try await request.page("webhooks", Page(
            chrome: PageChrome(request, title: "Webhooks · \(study.name)", study: study),
            webhooks: try webhooks.map { webhook in
                Page.Row(id: try webhook.requireID().uuidString, url: webhook.url, events: webhook.events.map(\.rawValue).joined(separator: ", "),
                         created: WebFormat.dateTime(webhook.createdAt))
            },
            deliveries: deliveries,
            events: WebhookEvent.allCases.map { Page.Choice(value: $0.rawValue, label: $0.explanation, checked: chosen.contains($0.rawValue)) },
            url: form.url ?? "", canEdit: try request.researcher.may(.editStudies), problems: problems, secret: secret,
            docs: SiteRoute.doc.path("research-api") + "#webhooks"), status: status)
    }
}

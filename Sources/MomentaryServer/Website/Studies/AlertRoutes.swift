import Fluent
import MomentaryCore
import Vapor

/// `/studies/:slug/alerts`: the study's alert rules (what, to whom), the alerts raised lately,
/// a form to add a rule and a button to delete each.
struct AlertRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.alerts, use: show)
        routes.post(SiteRoute.alerts, use: create)
        routes.post(SiteRoute.deleteAlertRule, use: delete)
    }

    struct Page: Encodable {
        struct Rule: Encodable {
            let id: String
            let what: String
            let recipients: String
            let answers: Bool
        }
        let chrome: PageChrome
        let rules: [Rule]
        let alerts: [AlertEvents.Row]
        let kinds: [SelectChoice]
        let surveys: [SelectChoice]
        let recipients: [SelectChoice]
        let form: Form
        let canEdit: Bool
        let mailConfigured: Bool
        let problems: [String]
        let conditionsDoc: String
    }

    struct Form: Content, Encodable {
        var kind: String?
        var days: String?
        var survey: String?
        var condition: String?
        var includeAnswers: String?
        var threshold: String?
        var recipients: [String]?
    }

    static let kindLabels: [(AlertRule.Kind, String)] = [
        (.quiet, "A participant has not answered for some days"),
        (.response, "A response meets a condition (sent at once)"),
        (.failures, "Too many of a day's beeps could not be delivered"),
        (.digest, "Every morning, the day before's compliance"),
        (.replies, "A participant replies to a message (sent at once)"),
    ]

    func show(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewStudies)
        let me = try request.researcher.id.uuidString
        return try await render(request, study: study, form: Form(kind: "quiet", days: "3", recipients: [me]), problems: [])
    }

    func create(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .editStudies)
        let form = try request.content.decode(Form.self)
        func number(_ text: String?) -> Int? { text.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
        guard let kind = AlertRule.Kind(rawValue: form.kind ?? "") else {
            return try await render(request, study: study, form: form, problems: ["Alert when: choose one of the four."], status: .unprocessableEntity)
        }
        let draft = AlertRules.Draft(
            kind: kind, days: number(form.days), surveyName: form.survey, condition: form.condition, includeAnswers: form.includeAnswers == "yes",
            thresholdPercent: number(form.threshold), recipients: (form.recipients ?? []).compactMap(UUID.init(uuidString:)))
        do {
            _ = try await AlertRules.create(draft, in: study, by: try request.researcher.email, on: request.db, now: request.now)
        } catch let refusal as AlertRules.Refusal {
            return try await render(request, study: study, form: form, problems: [refusal.description], status: .unprocessableEntity)
        }
        return request.redirect(to: SiteRoute.alerts.path(study.slug) + "?saved=1")
    }

    func delete(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .editStudies)
        guard let id = request.parameters.get("ruleID", as: UUID.self),
              let rule = try await AlertRule.query(on: request.db).filter(\.$id == id).filter(\.$study.$id == study.requireID()).first() else {
            throw Abort(.notFound, reason: "This study has no such alert rule.")
        }
        try await rule.delete(on: request.db)
        return request.redirect(to: SiteRoute.alerts.path(study.slug) + "?deleted=1")
    }

    private func render(_ request: Request, study: Study, form: Form, problems: [String], status: HTTPStatus = .ok) async throws -> Response {
        let rules = try await AlertRule.query(on: request.db).filter(\.$study.$id == study.requireID()).sort(\.$createdAt).all()
        let people = try await AlertRules.possibleRecipients(of: study, on: request.db)
        let emails = Dictionary(uniqueKeysWithValues: try people.map { (try $0.requireID(), $0.email) })
        let surveys = try await Survey.query(on: request.db).filter(\.$study.$id == study.requireID()).filter(\.$kind == .esm).sort(\.$position).all()
        let chosen = Set(form.recipients ?? [])
        return try await request.page("alerts", Page(
            chrome: PageChrome(request, title: "Alerts · \(study.name)", study: study),
            rules: try rules.map { rule in
                Page.Rule(
                    id: try rule.requireID().uuidString, what: AlertChecker.describe(rule),
                    recipients: rule.recipients.map { emails[$0] ?? "(no longer of this study)" }.joined(separator: ", "),
                    answers: rule.includeAnswers)
            },
            alerts: try await AlertEvents.latest(of: study, limit: 30, on: request.db),
            kinds: Self.kindLabels.map { SelectChoice(value: $0.0.rawValue, label: $0.1, selected: form.kind == $0.0.rawValue) },
            surveys: surveys.map { SelectChoice(value: $0.name, label: $0.name, selected: form.survey == $0.name) },
            recipients: try people.map { SelectChoice(value: try $0.requireID().uuidString, label: "\($0.name) <\($0.email)>", selected: chosen.contains(try $0.requireID().uuidString)) },
            form: form, canEdit: try request.researcher.may(.editStudies), mailConfigured: request.application.mail != nil,
            problems: problems, conditionsDoc: SiteRoute.doc.path("surveys")), status: status)
    }
}

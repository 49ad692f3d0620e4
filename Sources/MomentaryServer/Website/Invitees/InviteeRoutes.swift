import Fluent
import Vapor

/// `/studies/:slug/invitees`: invitation codes, sorted Invited → Participating → Restricted →
/// Withdrawn with counts; creating codes and restricting one.
struct InviteeRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("studies", ":slug", "invitees", use: list)
        routes.post("studies", ":slug", "invitees", use: create)
        routes.post("studies", ":slug", "invitees", ":code", "restrict", use: restrict)
    }

    struct InviteesPage: Encodable {
        let chrome: PageChrome
        let invitees: [Row]
        let counts: [Count]
        let total: Int
        let created: [String]
        let canCreate: Bool
        let canRestrict: Bool
        struct Row: Encodable {
            let code: String
            let status: String
            let created: String
            let canBeRestricted: Bool
        }
        struct Count: Encodable {
            let status: String
            let count: Int
        }
    }

    func list(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewInvitees)
        let created = (request.query[String.self, at: "created"] ?? "").split(separator: ",").map(String.init)
        return try await render(study, created: created, on: request)
    }

    func create(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .createInvitees)
        struct Form: Content { var count: Int }
        guard let form = try? request.content.decode(Form.self), (1...1000).contains(form.count) else {
            throw Abort(.unprocessableEntity, reason: "Number of codes: give a whole number from 1 to 1000.")
        }
        let invitees = try await InviteeService.create(count: form.count, studyID: study.requireID(), on: request.db, now: Date())
        let codes = invitees.map(\.code).joined(separator: ",")
        return request.redirect(to: "/studies/\(study.slug)/invitees?created=\(codes)")
    }

    func restrict(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .restrictInvitees)
        let code = try request.parameters.require("code").uppercased()
        // Look the code up within this study so a researcher cannot restrict another study's code.
        guard try await Invitee.query(on: request.db)
            .filter(\.$study.$id == study.requireID()).filter(\.$code == code).first() != nil
        else {
            throw Abort(.notFound, reason: "The study “\(study.name)” has no invitation code “\(code)”.")
        }
        _ = try await InviteeService.restrict(code: code, on: request.db, now: Date())
        return request.redirect(to: "/studies/\(study.slug)/invitees")
    }

    private func render(_ study: Study, created: [String], on request: Request) async throws -> Response {
        let researcher = try request.researcher
        let invitees = InviteeService.sorted(
            try await Invitee.query(on: request.db).filter(\.$study.$id == study.requireID()).all())
        let rows = invitees.map { invitee in
            InviteesPage.Row(
                code: invitee.code, status: invitee.status.rawValue.capitalized,
                created: WebFormat.dateTime(invitee.createdAt),
                canBeRestricted: invitee.status == .invited || invitee.status == .participating)
        }
        let counts = Invitee.Status.allCases.map { status in
            InviteesPage.Count(status: status.rawValue.capitalized, count: invitees.filter { $0.status == status }.count)
        }
        return try await request.page("invitees", InviteesPage(
            chrome: PageChrome(request, title: "Invitees · \(study.name)", study: study),
            invitees: rows, counts: counts, total: invitees.count, created: created,
            canCreate: researcher.may(.createInvitees), canRestrict: researcher.may(.restrictInvitees)))
    }
}

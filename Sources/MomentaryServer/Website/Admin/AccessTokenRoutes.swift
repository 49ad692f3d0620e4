import Fluent
import Vapor

/// `/account/tokens`: a researcher's own personal access tokens for the research API: listed,
/// made (the secret shown once) and revoked. Any signed-in researcher may; a token never reaches
/// beyond its maker's role and studies (`AccessTokens`).
struct AccessTokenRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.accessTokens, use: show)
        routes.post(SiteRoute.accessTokens, use: create)
        routes.post(SiteRoute.revokeAccessToken, use: revoke)
    }

    struct TokensPage: Encodable {
        struct Row: Encodable {
            let id: String
            let name: String
            let prefix: String
            let studies: String
            let access: String
            let created: String
            let expires: String
            let lastUsed: String
            let status: String
            let live: Bool
        }
        let chrome: PageChrome
        let tokens: [Row]
        let studies: [SelectChoice]
        let name: String
        let days: Int
        let maximumDays: Int
        let readOnly: Bool
        let triggersBeeps: Bool
        let problems: [String]
        /// The secret of the token just made: shown this once.
        let secret: String?
        let apiDocs: String
    }

    struct CreateForm: Content {
        var name: String?
        var study: [String]?
        var days: String?
        var readOnly: String?
        var triggersBeeps: String?
    }

    func show(request: Request) async throws -> Response {
        try await render(request, form: CreateForm(), problems: [], secret: nil)
    }

    func create(request: Request) async throws -> Response {
        let form = try request.content.decode(CreateForm.self)
        guard let account = try await Researcher.find(try request.researcher.id, on: request.db) else {
            throw Abort(.notFound, reason: "Your account no longer exists.")
        }
        guard let days = Int((form.days ?? "").trimmingCharacters(in: .whitespaces)) else {
            return try await render(request, form: form, problems: ["Expires in: a whole number of days from 1 to \(AccessTokens.maximumDays)."], secret: nil, status: .unprocessableEntity)
        }
        do {
            let (_, secret) = try await AccessTokens.create(
                for: account, name: form.name ?? "", studySlugs: (form.study ?? []).filter { !$0.isEmpty }, expiresInDays: days,
                readOnly: form.readOnly == "yes", triggersBeeps: form.triggersBeeps == "yes", on: request.db, now: request.now)
            return try await render(request, form: CreateForm(), problems: [], secret: secret, status: .created)
        } catch let refusal as AccessTokens.Refusal {
            return try await render(request, form: form, problems: [refusal.description], secret: nil, status: .unprocessableEntity)
        }
    }

    func revoke(request: Request) async throws -> Response {
        guard let id = request.parameters.get("tokenID", as: UUID.self),
              try await AccessTokens.revoke(id, of: try request.researcher.id, on: request.db, now: request.now) else {
            throw Abort(.notFound, reason: "You have no such live token.")
        }
        return request.redirect(to: SiteRoute.accessTokens.path())
    }

    private func render(_ request: Request, form: CreateForm, problems: [String], secret: String?, status: HTTPStatus = .ok) async throws -> Response {
        let researcher = try request.researcher
        let studies = try await Study.query(on: request.db).sort(\.$slug).all().filter { researcher.canAccess(studyID: try $0.requireID()) }
        let slugs = Dictionary(uniqueKeysWithValues: try studies.map { (try $0.requireID(), $0.slug) })
        let now = request.now
        let rows = try await AccessToken.query(on: request.db).filter(\.$researcher.$id == researcher.id).sort(\.$createdAt, .descending).all().map { token in
            let status = token.revokedAt != nil ? "revoked" : token.expiresAt <= now ? "expired" : "live"
            return TokensPage.Row(
                id: try token.requireID().uuidString, name: token.name, prefix: token.prefix + "…",
                studies: token.studyIDs.map { $0.map { slugs[$0] ?? "(no longer yours)" }.joined(separator: ", ") } ?? "every study you may see",
                access: token.readOnly ? "read only" : token.triggersBeeps ? "as your role; may beep participants" : "as your role", created: WebFormat.dateTime(token.createdAt),
                expires: WebFormat.dateTime(token.expiresAt), lastUsed: token.lastUsedAt.map(WebFormat.dateTime) ?? "never",
                status: status, live: status == "live")
        }
        let chosen = Set(form.study ?? [])
        return try await request.page("access-tokens", TokensPage(
            chrome: PageChrome(request, title: "Personal access tokens"), tokens: rows,
            studies: studies.map { SelectChoice(value: $0.slug, label: $0.name, selected: chosen.contains($0.slug)) },
            name: form.name ?? "", days: Int(form.days ?? "") ?? AccessTokens.defaultDays, maximumDays: AccessTokens.maximumDays,
            readOnly: form.readOnly == "yes", triggersBeeps: form.triggersBeeps == "yes", problems: problems, secret: secret,
            apiDocs: SiteRoute.doc.path("research-api")), status: status)
    }
}

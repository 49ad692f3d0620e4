import Fluent
import Vapor

/// `/account`: every signed-in researcher can change their own password (the current one is
/// asked again, so an unattended browser cannot take the account over). Other sessions end.
struct AccountRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.account, use: show)
        routes.post(SiteRoute.accountPassword, use: changePassword)
    }

    struct AccountPage: Encodable {
        let chrome: PageChrome
        let email: String
        let minimumLength: Int
        let problems: [String]
        let changed: Bool
    }

    struct PasswordForm: Content {
        var current: String?
        var new: String?
        var repeated: String?
    }

    func show(request: Request) async throws -> Response {
        try await render(request, problems: [], changed: request.query[String.self, at: "changed"] != nil)
    }

    func changePassword(request: Request) async throws -> Response {
        let form = try request.content.decode(PasswordForm.self)
        guard let researcher = try await Researcher.find(try request.researcher.id, on: request.db) else {
            throw Abort(.notFound, reason: "Your account no longer exists.")
        }
        var problems: [String] = []
        if !(try await ResearcherPasswords.verify(form.current ?? "", hash: researcher.passwordHash)) {
            problems.append("Current password: that is not your password.")
        }
        let new = form.new ?? ""
        if new.count < ResearcherAccounts.minimumPasswordLength {
            problems.append("New password: must be at least \(ResearcherAccounts.minimumPasswordLength) characters long.")
        } else if new != form.repeated {
            problems.append("Repeat the new password: the two entries differ.")
        }
        guard problems.isEmpty else {
            return try await render(request, problems: problems, changed: false, status: .unprocessableEntity)
        }
        try await ResearcherAccounts.setPassword(new, of: researcher, keepingSession: request.session.id, on: request.db)
        return request.redirect(to: SiteRoute.account.path() + "?changed=1")
    }

    private func render(_ request: Request, problems: [String], changed: Bool, status: HTTPStatus = .ok) async throws -> Response {
        try await request.page("account", AccountPage(
            chrome: PageChrome(request, title: "Your account"), email: try request.researcher.email,
            minimumLength: ResearcherAccounts.minimumPasswordLength, problems: problems, changed: changed), status: status)
    }
}

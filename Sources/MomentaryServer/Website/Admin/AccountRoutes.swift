import Fluent
import Vapor

/// `/account`: every signed-in researcher can change their own password (the current one is
/// asked again, so an unattended browser cannot take the account over). Other sessions end. Its
/// two-step sign-in section links to `TwoStepRoutes`, and switching it off is rendered here.
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
        let twoStepOn: Bool
        let recoveryCodesLeft: Int
        let twoStepSwitchedOff: Bool
        let twoStepRequired: Bool
    }

    struct PasswordForm: Content {
        var current: String?
        var new: String?
        var repeated: String?
    }

    func show(request: Request) async throws -> Response {
        try await Self.render(request, problems: [], changed: request.query[String.self, at: "changed"] != nil)
    }

    func changePassword(request: Request) async throws -> Response {
        let form = try request.content.decode(PasswordForm.self)
        let researcher = try await Self.account(request)
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
            return try await Self.render(request, problems: problems, status: .unprocessableEntity)
        }
        try await ResearcherAccounts.setPassword(new, of: researcher, keepingSession: request.session.id, on: request.db)
        return request.redirect(to: SiteRoute.account.path() + "?changed=1")
    }

    /// The signed-in researcher's own row.
    static func account(_ request: Request) async throws -> Researcher {
        guard let researcher = try await Researcher.find(try request.researcher.id, on: request.db) else {
            throw Abort(.notFound, reason: "Your account no longer exists.")
        }
        return researcher
    }

    static func render(_ request: Request, problems: [String], changed: Bool = false, status: HTTPStatus = .ok) async throws -> Response {
        let researcher = try await Self.account(request)
        return try await request.page("account", AccountPage(
            chrome: PageChrome(request, title: "Your account"), email: researcher.email,
            minimumLength: ResearcherAccounts.minimumPasswordLength, problems: problems, changed: changed,
            twoStepOn: researcher.totpSecret != nil,
            recoveryCodesLeft: try await TwoStepSignIn.unusedRecoveryCodes(of: researcher.requireID(), on: request.db),
            twoStepSwitchedOff: request.query[String.self, at: "two-step"] == "off",
            twoStepRequired: request.application.momentaryConfiguration.requireSecondFactor), status: status)
    }
}

import Fluent
import Vapor

/// `/signin/forgot` (ask for a reset link by email) and `/signin/reset` (choose a new password
/// with the link's secret). The forgot form answers the same for every email, so it does not tell
/// which have accounts, and each address may ask a few times in a quarter of an hour.
struct PasswordResetRoutes: RouteCollection {
    let asks = RequestRateLimiter(limit: 5, window: 900)

    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.forgotPassword, use: showForgot)
        routes.post(SiteRoute.forgotPassword, use: forgot)
        routes.get(SiteRoute.resetPassword, use: showReset)
        routes.post(SiteRoute.resetPassword, use: reset)
    }

    struct ForgotPage: Encodable {
        let chrome: PageChrome
        let mailConfigured: Bool
        let email: String
        let sent: Bool
        let problem: String?
    }

    struct ResetPage: Encodable {
        let chrome: PageChrome
        let token: String
        let valid: Bool
        let minimumLength: Int
        let problems: [String]
    }

    func showForgot(request: Request) async throws -> Response {
        try await forgotPage(request, email: "", sent: false, problem: nil)
    }

    func forgot(request: Request) async throws -> Response {
        struct Form: Content { var email: String }
        let email = (try? request.content.decode(Form.self))?.email.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard let mail = request.application.mail else { return try await forgotPage(request, email: email, sent: false, problem: nil) }
        guard MailAddress.isAddress(email) else {
            return try await forgotPage(request, email: email, sent: false, problem: "Email: enter the address you sign in with.", status: .unprocessableEntity)
        }
        guard await asks.allow(ClientAddress.of(request), now: request.now) else {
            let response = try await forgotPage(request, email: email, sent: false,
                problem: "Too many reset requests from this address. Try again in 15 minutes.", status: .tooManyRequests)
            response.headers.replaceOrAdd(name: .retryAfter, value: String(Int(asks.window)))
            return response
        }
        let created = try await PasswordResets.create(forEmail: email, on: request.db, now: request.now)
        if let (researcher, secret) = created, let recipient = MailAddress(name: nil, address: researcher.email) {
            let origin = ClientAddress.origin(of: request)
            let link = origin + SiteRoute.resetPassword.path() + "?token=" + secret
            try await mail.queue(.passwordReset, to: [recipient], subject: "Reset your Momentary password", body: Self.mailBody(link: link, origin: origin), on: request.db)
        }
        try await AuditLog.record("ask for a password reset", researcher: (created?.researcher.id, email), request: request,
                                  outcome: created == nil ? "200 nothing sent" : "200 link mailed")
        return try await forgotPage(request, email: email, sent: true, problem: nil)
    }

    static func mailBody(link: String, origin: String) -> String {
        """
        Someone, hopefully you, asked to reset the password of your Momentary account at \(origin).

        To choose a new password, open this link within an hour. It works once:

        \(link)

        If you did not ask, ignore this email: your password stays as it is.
        """
    }

    func showReset(request: Request) async throws -> Response {
        let token = (try? request.query.get(String.self, at: "token")) ?? ""
        let valid = token.isEmpty ? false : try await PasswordResets.isValid(token, on: request.db, now: request.now)
        return try await request.page("password-reset", ResetPage(
            chrome: PageChrome(request, title: "Choose a new password"), token: token, valid: valid,
            minimumLength: ResearcherAccounts.minimumPasswordLength, problems: []), status: valid ? .ok : .notFound)
    }

    func reset(request: Request) async throws -> Response {
        struct Form: Content { var token: String; var password: String; var confirm: String }
        guard let form = try? request.content.decode(Form.self) else { throw Abort(.badRequest, reason: "The form is incomplete.") }
        func page(_ problems: [String], valid: Bool = true, status: HTTPStatus) async throws -> Response {
            try await request.page("password-reset", ResetPage(
                chrome: PageChrome(request, title: "Choose a new password"), token: form.token, valid: valid,
                minimumLength: ResearcherAccounts.minimumPasswordLength, problems: problems), status: status)
        }
        guard form.password == form.confirm else {
            return try await page(["Repeat the new password: it differs from the new password."], status: .unprocessableEntity)
        }
        do {
            let researcher = try await PasswordResets.redeem(form.token, newPassword: form.password, on: request.db, now: request.now)
            try await AuditLog.record("reset password", researcher: (researcher.id, researcher.email), request: request, outcome: "303")
            return request.redirect(to: SiteRoute.signIn.path() + "?reset=1", redirectType: .normal)
        } catch PasswordResets.Refusal.passwordTooShort {
            return try await page(["New password: must be at least \(ResearcherAccounts.minimumPasswordLength) characters long."], status: .unprocessableEntity)
        } catch PasswordResets.Refusal.invalidOrUsed {
            try await AuditLog.record("reset password", researcher: (nil, nil), request: request, outcome: "404 link invalid, used or expired")
            return try await page([], valid: false, status: .notFound)
        }
    }

    private func forgotPage(_ request: Request, email: String, sent: Bool, problem: String?, status: HTTPStatus = .ok) async throws -> Response {
        try await request.page("password-forgot", ForgotPage(
            chrome: PageChrome(request, title: "Reset your password"), mailConfigured: request.application.mail != nil,
            email: email, sent: sent, problem: problem), status: status)
    }
}

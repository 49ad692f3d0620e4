import Fluent
import Vapor

/// `/signin` and `/signout`. There is no sign-up: accounts are made by `momentary researchers
/// create` or by a researcher manager.
struct SignInRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        // The front door: researchers who are signed in go to their studies; everyone else (a
        // participant opening the server's address) to the participant app, which links to sign-in.
        routes.get(SiteRoute.home) { request in
            // The cookie, not `request.session`: touching the session would store a row for every visitor.
            request.redirect(to: request.cookies[WebSession.cookieName] == nil ? SiteRoute.participantApp.path() : SiteRoute.studies.path())
        }
        routes.get(SiteRoute.signIn, use: show)
        routes.post(SiteRoute.signIn, use: signIn)
        routes.post(SiteRoute.signOut, use: signOut)
    }

    struct SignInForm: Content {
        var email: String
        var password: String
    }

    struct SignInPage: Encodable {
        let chrome: PageChrome
        let email: String
        let message: String?
        var notice: String? = nil
    }

    func show(request: Request) async throws -> Response {
        // After a password reset (`PasswordResetRoutes`).
        let notice = request.query[String.self, at: "reset"] == "1" ? "Your password is changed. Sign in with the new one." : nil
        return try await request.page("signin", SignInPage(chrome: PageChrome(request, title: "Sign in"), email: "", message: nil, notice: notice))
    }

    func signIn(request: Request) async throws -> Response {
        let form = try request.content.decode(SignInForm.self)
        let email = form.email.trimmingCharacters(in: .whitespaces).lowercased()
        if let seconds = try await SignInAttempt.waitTurn(email: email, action: "sign in", on: request) {
            let refusal = SignInAttempt.refusal(seconds)
            let response = try await request.page("signin", SignInPage(
                chrome: PageChrome(request, title: "Sign in"), email: email, message: refusal.message), status: .tooManyRequests)
            response.headers.replaceOrAdd(name: .retryAfter, value: refusal.header)
            return response
        }
        let researcher = try await Researcher.query(on: request.db).filter(\.$email == email).first()
        let passwordMatches = try await ResearcherPasswords.matches(form.password, of: researcher)
        guard let researcher, passwordMatches, !researcher.disabled else {
            try await SignInAttempt.recordFailure(email: email, researcherID: researcher?.id, action: "sign in", on: request)
            let message = (researcher?.disabled == true && passwordMatches)
                ? "This account is disabled. Ask a researcher manager to enable it."
                : "The email or password is not right."
            return try await request.page("signin", SignInPage(
                chrome: PageChrome(request, title: "Sign in"), email: email, message: message), status: .unauthorized)
        }
        guard researcher.totpSecret != nil else {
            return try await SignInAttempt.complete(researcher, action: "sign in", on: request)
        }
        // The throttle keys are cleared only after the code too, so a guesser who has the
        // password cannot reset the count of wrong codes by typing it again.
        try await AuditLog.record("sign in", researcher: (researcher.id, researcher.email), request: request, outcome: "303 code asked")
        try await WebSession.awaitSecondStep(researcher.requireID(), email: email, on: request, now: request.application.timeSource.now())
        return request.redirect(to: SiteRoute.signInCode.path(), redirectType: .normal)
    }

    func signOut(request: Request) async throws -> Response {
        request.session.destroy()
        return request.redirect(to: SiteRoute.signIn.path(), redirectType: .normal)
    }
}

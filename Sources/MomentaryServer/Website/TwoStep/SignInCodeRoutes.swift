import Fluent
import Vapor

/// `/signin/code`: the second step of sign-in for researchers with two-step sign-in on. The
/// session is only half signed in until a current code (or an unused recovery code) is given.
struct SignInCodeRoutes: RouteCollection {
    /// Wrong codes one half-signed-in session may send before the password is asked again.
    static let wrongCodesPerSession = 5

    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.signInCode, use: show)
        routes.post(SiteRoute.signInCode, use: check)
    }

    struct CodePage: Encodable {
        let chrome: PageChrome
        let problem: String?
    }

    struct CodeForm: Content {
        var code: String?
    }

    func show(request: Request) async throws -> Response {
        guard WebSession.pendingResearcher(of: request, now: request.application.timeSource.now()) != nil else {
            return request.redirect(to: SiteRoute.signIn.path())
        }
        return try await page(request, problem: nil)
    }

    func check(request: Request) async throws -> Response {
        let action = "sign in code"
        guard let pending = WebSession.pendingResearcher(of: request, now: request.application.timeSource.now()) else {
            return request.redirect(to: SiteRoute.signIn.path(), redirectType: .normal)
        }
        if let seconds = try await SignInAttempt.waitTurn(email: pending.email, action: action, on: request) {
            let refusal = SignInAttempt.refusal(seconds)
            let response = try await page(request, problem: refusal.message, status: .tooManyRequests)
            response.headers.replaceOrAdd(name: .retryAfter, value: refusal.header)
            return response
        }
        let code = (try request.content.decode(CodeForm.self).code ?? "").trimmingCharacters(in: .whitespaces)
        guard let researcher = try await Researcher.find(pending.id, on: request.db), !researcher.disabled else {
            request.session.destroy()
            return request.redirect(to: SiteRoute.signIn.path(), redirectType: .normal)
        }
        if try await TwoStepSignIn.use(code, of: researcher, at: request.application.timeSource.now(), on: request.db) {
            return try await SignInAttempt.complete(researcher, action: action, on: request)
        }
        try await SignInAttempt.recordFailure(email: pending.email, researcherID: pending.id, action: action, on: request)
        let failures = (request.session.data[WebSession.pendingFailuresKey].flatMap(Int.init) ?? 0) + 1
        guard failures < Self.wrongCodesPerSession else {
            request.session.destroy()
            return request.redirect(to: SiteRoute.signIn.path(), redirectType: .normal)
        }
        request.session.data[WebSession.pendingFailuresKey] = String(failures)
        let problem = code.isEmpty
            ? "Code: type the 6-digit code your authenticator app shows, or a recovery code."
            : "Code: that code is not right, or was used already. Codes change every 30 seconds."
        return try await page(request, problem: problem, status: .unauthorized)
    }

    private func page(_ request: Request, problem: String?, status: HTTPStatus = .ok) async throws -> Response {
        try await request.page("signin-code", CodePage(chrome: PageChrome(request, title: "Sign-in code"), problem: problem), status: status)
    }
}

import Fluent
import Vapor

/// `/signin` and `/signout`. There is no sign-up: accounts are made by `momentary researchers
/// create` or by a researcher manager.
struct SignInRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        // The front door: researchers who are signed in go to their studies; everyone else (a
        // participant opening the server's address) to the participant app, which links to sign-in.
        routes.get { request in
            // The cookie, not `request.session`: touching the session would store a row for every visitor.
            request.redirect(to: request.cookies[WebSession.cookieName] == nil ? "/app" : "/studies")
        }
        routes.get("signin", use: show)
        routes.post("signin", use: signIn)
        routes.post("signout", use: signOut)
    }

    struct SignInForm: Content {
        var email: String
        var password: String
    }

    struct SignInPage: Encodable {
        let chrome: PageChrome
        let email: String
        let message: String?
    }

    func show(request: Request) async throws -> Response {
        try await request.page("signin", SignInPage(chrome: PageChrome(request, title: "Sign in"), email: "", message: nil))
    }

    func signIn(request: Request) async throws -> Response {
        let form = try request.content.decode(SignInForm.self)
        let email = form.email.trimmingCharacters(in: .whitespaces).lowercased()
        let throttle = request.application.storage[SignInThrottleKey.self]!
        let key = SignInThrottle.key(email: email, address: ClientAddress.of(request))
        let now = Date()
        if await throttle.isBlocked(key, now: now) {
            try await AuditLog.record("sign in", researcher: (nil, email), request: request, outcome: "429 throttled")
            return try await request.page("signin", SignInPage(
                chrome: PageChrome(request, title: "Sign in"), email: email,
                message: "Too many failed sign-ins. Please wait 15 minutes and try again."), status: .tooManyRequests)
        }
        let researcher = try await Researcher.query(on: request.db).filter(\.$email == email).first()
        let passwordMatches = try await ResearcherPasswords.matches(form.password, of: researcher)
        guard let researcher, passwordMatches, !researcher.disabled else {
            await throttle.recordFailure(key, now: now)
            try await AuditLog.record("sign in", researcher: (researcher?.id, email), request: request, outcome: "401 failed")
            let message = (researcher?.disabled == true && passwordMatches)
                ? "This account is disabled. Ask a researcher manager to enable it."
                : "The email or password is not right."
            return try await request.page("signin", SignInPage(
                chrome: PageChrome(request, title: "Sign in"), email: email, message: message), status: .unauthorized)
        }
        await throttle.reset(key)
        try await AuditLog.record("sign in", researcher: (researcher.id, researcher.email), request: request, outcome: "303")
        researcher.lastSignInAt = now
        try await researcher.save(on: request.db)
        try await WebSession.signIn(researcher.requireID(), on: request)
        return request.redirect(to: "/studies", redirectType: .normal)
    }

    func signOut(request: Request) async throws -> Response {
        request.session.destroy()
        return request.redirect(to: "/signin", redirectType: .normal)
    }
}

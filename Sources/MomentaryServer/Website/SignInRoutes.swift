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
        let address = ClientAddress.of(request)
        let clock = request.application.timeSource
        let startedAt = clock.now()
        switch try await SignInThrottle.decide(email: email, address: address, now: startedAt, on: request.db) {
        case .refuse(let retryAfter):
            let seconds = max(1, Int((retryAfter - 0.001).rounded(.up)))
            request.logger.warning(
                "Sign-in refused without checking the password: too many failed sign-ins from this address",
                metadata: ["email": .string(email), "address": .string(address), "retry_after": .stringConvertible(seconds)])
            try await AuditLog.record("sign in", researcher: (nil, email), request: request, outcome: "429 throttled")
            let response = try await request.page("signin", SignInPage(
                chrome: PageChrome(request, title: "Sign in"), email: email,
                message: "Too many failed sign-ins. Try again in \(Self.duration(seconds))."), status: .tooManyRequests)
            response.headers.replaceOrAdd(name: .retryAfter, value: String(seconds))
            return response
        case .delay(let delay):
            request.logger.notice(
                "Sign-in slowed: the account has failed sign-ins",
                metadata: ["email": .string(email), "address": .string(address), "delay": .stringConvertible(delay)])
            try await clock.sleep(until: startedAt.addingTimeInterval(delay))
        case .proceed:
            break
        }
        let researcher = try await Researcher.query(on: request.db).filter(\.$email == email).first()
        let passwordMatches = try await ResearcherPasswords.matches(form.password, of: researcher)
        guard let researcher, passwordMatches, !researcher.disabled else {
            let backOffs = try await SignInThrottle.recordFailure(email: email, address: address, now: clock.now(), on: request.db)
            for (key, until) in backOffs.sorted(by: { $0.key < $1.key }) {
                request.logger.notice(
                    "Failed sign-in: back-off for \(key) until \(until)",
                    metadata: ["email": .string(email), "address": .string(address)])
            }
            try await AuditLog.record("sign in", researcher: (researcher?.id, email), request: request, outcome: "401 failed")
            let message = (researcher?.disabled == true && passwordMatches)
                ? "This account is disabled. Ask a researcher manager to enable it."
                : "The email or password is not right."
            return try await request.page("signin", SignInPage(
                chrome: PageChrome(request, title: "Sign in"), email: email, message: message), status: .unauthorized)
        }
        try await SignInThrottle.recordSuccess(email: email, address: address, on: request.db)
        try await AuditLog.record("sign in", researcher: (researcher.id, researcher.email), request: request, outcome: "303")
        researcher.lastSignInAt = clock.now()
        try await researcher.save(on: request.db)
        try await WebSession.signIn(researcher.requireID(), on: request)
        return request.redirect(to: SiteRoute.studies.path(), redirectType: .normal)
    }

    /// "1 second", "40 seconds", "3 minutes": how long to wait, in words.
    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        let minutes = (seconds + 59) / 60
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }

    func signOut(request: Request) async throws -> Response {
        request.session.destroy()
        return request.redirect(to: SiteRoute.signIn.path(), redirectType: .normal)
    }
}

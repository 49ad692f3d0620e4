import Fluent
import MomentaryCore
import Vapor

/// `/account/two-step`: a researcher switches two-step sign-in on (a new secret, shown as text
/// and as a QR code, confirmed with a current code, then ten recovery codes shown once) or off.
/// The secret waits in the session until confirmed, so an abandoned set-up changes nothing.
struct TwoStepRoutes: RouteCollection {
    static let enrollingKey = "totp_enrolling"

    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.accountTwoStep, use: show)
        routes.get(SiteRoute.accountTwoStepQR, use: qrCode)
        routes.post(SiteRoute.accountTwoStep, use: confirm)
        routes.post(SiteRoute.accountTwoStepOff, use: switchOff)
    }

    struct EnrolPage: Encodable {
        let chrome: PageChrome
        /// In groups of four, for typing.
        let groupedSecret: String
        let required: Bool
        let problem: String?
        /// Set once switched on: the recovery codes, shown this once.
        let recoveryCodes: [String]?
    }

    struct CodeForm: Content {
        var code: String?
    }

    struct SwitchOffForm: Content {
        var code: String?
        var password: String?
    }

    func show(request: Request) async throws -> Response {
        let researcher = try await AccountRoutes.account(request)
        if researcher.totpSecret != nil { return request.redirect(to: SiteRoute.account.path()) }
        return try await enrolPage(request, secret: Self.enrollingSecret(request), problem: nil)
    }

    func qrCode(request: Request) async throws -> Response {
        let secret = Self.enrollingSecret(request)
        let uri = TOTPGenerator.provisioningURI(secret: secret, email: try request.researcher.email)
        let svg = try QRCode(uri).svg(moduleSize: 4, title: "Two-step sign-in set-up code for Momentary")
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "image", subType: "svg+xml", parameters: ["charset": "utf-8"])
        // It holds the secret: never kept by a cache.
        headers.cacheControl = .init(noStore: true)
        return Response(status: .ok, headers: headers, body: .init(string: svg))
    }

    func confirm(request: Request) async throws -> Response {
        let researcher = try await AccountRoutes.account(request)
        guard researcher.totpSecret == nil else { return request.redirect(to: SiteRoute.account.path()) }
        let secret = Self.enrollingSecret(request)
        let code = (try request.content.decode(CodeForm.self).code ?? "").trimmingCharacters(in: .whitespaces)
        guard let key = Base32.decode(secret),
              let step = TOTPGenerator(key: key).matchingStep(code, at: request.application.timeSource.now(), after: nil) else {
            let problem = code.isEmpty
                ? "Code: type the 6-digit code your authenticator app shows."
                : "Code: that is not the current code. Check that the app shows Momentary's code and that your phone's clock is right."
            return try await enrolPage(request, secret: secret, problem: problem, status: .unprocessableEntity)
        }
        let codes = try await TwoStepSignIn.enable(researcher, secret: secret, step: step, on: request.db)
        request.session.data[Self.enrollingKey] = nil
        request.logger.notice("Two-step sign-in switched on", metadata: ["email": .string(researcher.email)])
        return try await enrolPage(request, secret: secret, problem: nil, recoveryCodes: codes)
    }

    func switchOff(request: Request) async throws -> Response {
        let researcher = try await AccountRoutes.account(request)
        guard researcher.totpSecret != nil else { return request.redirect(to: SiteRoute.account.path()) }
        guard !request.application.momentaryConfiguration.requireSecondFactor else {
            return try await AccountRoutes.render(request, problems: [
                "Switch off: this server requires two-step sign-in for every researcher, so it stays on."], status: .unprocessableEntity)
        }
        let form = try request.content.decode(SwitchOffForm.self)
        let code = (form.code ?? "").trimmingCharacters(in: .whitespaces)
        let confirmed = code.isEmpty
            ? try await ResearcherPasswords.verify(form.password ?? "", hash: researcher.passwordHash)
            : try await TwoStepSignIn.use(code, of: researcher, at: request.application.timeSource.now(), on: request.db)
        guard confirmed else {
            let problem = code.isEmpty
                ? "Switch off: type a current code or your password; that password is not right."
                : "Switch off: that code is not right, or was used already."
            return try await AccountRoutes.render(request, problems: [problem], status: .unprocessableEntity)
        }
        try await TwoStepSignIn.disable(researcher, on: request.db)
        return request.redirect(to: SiteRoute.account.path() + "?two-step=off")
    }

    /// The secret being set up in this session, made on first use.
    static func enrollingSecret(_ request: Request) -> String {
        if let secret = request.session.data[enrollingKey] { return secret }
        let secret = TOTPGenerator.newSecret()
        request.session.data[enrollingKey] = secret
        return secret
    }

    private func enrolPage(
        _ request: Request, secret: String, problem: String?, recoveryCodes: [String]? = nil, status: HTTPStatus = .ok
    ) async throws -> Response {
        try await request.page("two-step", EnrolPage(
            chrome: PageChrome(request, title: "Two-step sign-in"),
            groupedSecret: SecretCode.grouped(secret, separator: " "),
            required: request.application.momentaryConfiguration.requireSecondFactor,
            problem: problem, recoveryCodes: recoveryCodes), status: status)
    }
}

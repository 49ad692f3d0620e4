import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

@Suite("Two-step sign-in (TOTP and recovery codes)", .serialized)
struct TwoStepSignInTests {
    @Test("set up, sign in with a code, replay refused, previous step once, recovery code once, all audited")
    func enrolAndSignIn() async throws {
        try await withTwoStepApp { app, clock in
            var (client, totp, codes) = try await Self.enrolled(app, clock: clock)
            #expect(codes.count == 10)
            #expect(Set(codes).count == 10)
            let account = try await client.get("/account")
            #expect(account.body.string.contains("Recovery codes left: 10"))
            _ = try await client.post("/signout")

            clock.advance(by: 300)
            let step = totp.step(at: clock.now())
            let previous = totp.code(forStep: step - 1)
            #expect(try await Self.signIn(&client, code: previous).status == .seeOther)
            #expect(try await client.get("/studies").status == .ok)
            _ = try await client.post("/signout")

            #expect(try await Self.signIn(&client, code: previous).status == .unauthorized, "replay")
            let current = totp.code(forStep: step)
            let accepted = try await client.post("/signin/code", [("code", current)])
            #expect(accepted.status == .seeOther)
            #expect(accepted.headers.first(name: .location) == "/studies")
            _ = try await client.post("/signout")
            #expect(try await Self.signIn(&client, code: current).status == .unauthorized, "replay of the newest")

            #expect(try await client.post("/signin/code", [("code", codes[3].lowercased())]).status == .seeOther)
            _ = try await client.post("/signout")
            #expect(try await Self.signIn(&client, code: codes[3]).status == .unauthorized, "a recovery code works once")
            #expect(try await client.post("/signin/code", [("code", codes[4])]).status == .seeOther)
            #expect(try await client.get("/account").body.string.contains("Recovery codes left: 8"))

            let outcomes = try await AuditEvent.query(on: app.db).filter(\.$action == "sign in code").all().map(\.outcome)
            #expect(outcomes.filter { $0 == "303" }.count == 4)
            #expect(outcomes.filter { $0 == "401 failed" }.count == 3)
            #expect(try await AuditEvent.query(on: app.db).filter(\.$action == "switch on two-step sign-in").count() == 1)
            #expect(try await AuditEvent.query(on: app.db).filter(\.$outcome == "303 code asked").count() == 4)
        }
    }

    @Test("half signed in (right password, no code) opens no other page, and the half session ends there")
    func halfSignedIn() async throws {
        try await withTwoStepApp { app, clock in
            var (client, _, _) = try await Self.enrolled(app, clock: clock)
            _ = try await client.post("/signout")
            // Each refusal ends the half session, so the password is given again before each.
            for path in ["/studies", "/account", "/account/two-step", "/studies/study-a/responses"] {
                let password = try await client.signIn(WebsiteWorld.developer)
                #expect(password.headers.first(name: .location) == "/signin/code")
                #expect(try await client.get("/signin/code").status == .ok)
                let page = try await client.get(path)
                #expect(page.status == .seeOther, "\(path)")
                #expect(page.headers.first(name: .location) == "/signin", "\(path)")
            }
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/signin/code")
            #expect(try await client.post("/studies", [("name", "Sneaky"), ("slug", "sneaky")]).status == .unauthorized)
            #expect(try await Study.query(on: app.db).filter(\.$slug == "sneaky").count() == 0)
            #expect(try await client.get("/studies").headers.first(name: .location) == "/signin")
            #expect(try await client.get("/signin/code").headers.first(name: .location) == "/signin", "the half session ended")
        }
    }

    @Test("wrong codes are throttled like wrong passwords, and a right password does not reset their count")
    func wrongCodesThrottled() async throws {
        try await withTwoStepApp { app, clock in
            var (client, totp, _) = try await Self.enrolled(app, clock: clock)
            _ = try await client.post("/signout")
            clock.advance(by: 120)
            #expect(try await Self.signIn(&client, code: "000000").status == .unauthorized)
            _ = try await client.get("/signin/code")
            #expect(try await client.post("/signin/code", [("code", "111111")]).status == .unauthorized)
            // Typing the password again does not forgive the wrong codes.
            #expect(try await Self.signIn(&client, code: "222222").status == .unauthorized)
            let refused = try await client.post("/signin/code", [("code", totp.code(at: clock.now()))])
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers.first(name: .retryAfter) == "1")
            #expect(refused.body.string.contains("Too many failed sign-ins"))
            #expect(try await SignInFailure.query(on: app.db).filter(\.$key == SignInThrottle.accountKey(WebsiteWorld.developer)).first()?.failures == 3)
            clock.advance(by: 2)
            #expect(try await client.post("/signin/code", [("code", totp.code(at: clock.now()))]).status == .seeOther)
            #expect(try await SignInFailure.query(on: app.db).count() == 0, "a success forgives")
        }
    }

    @Test("MOMENTARY_REQUIRE_SECOND_FACTOR sends a researcher without one to set it up before any other page")
    func requiredSecondFactor() async throws {
        try await withTwoStepApp(required: true) { app, clock in
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            for path in ["/studies", "/account", "/studies/study-a/responses", "/audit"] {
                let page = try await client.get(path)
                #expect(page.status == .seeOther, "\(path)")
                #expect(page.headers.first(name: .location) == "/account/two-step", "\(path)")
            }
            let setUp = try await client.get("/account/two-step")
            #expect(setUp.status == .ok)
            #expect(setUp.body.string.contains("asks every researcher for two-step sign-in"))
            #expect(try await client.post("/studies", [("name", "Before")]).status == .forbidden)
            _ = try await Self.enrol(&client, clock: clock)
            #expect(try await client.get("/studies").status == .ok)
        }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("two-step-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let configuration = try Configuration.load(environment: ["MOMENTARY_DATA_DIR": data, "MOMENTARY_REQUIRE_SECOND_FACTOR": "1"])
        #expect(configuration.requireSecondFactor)
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["MOMENTARY_DATA_DIR": data, "MOMENTARY_REQUIRE_SECOND_FACTOR": "yes"])
        }
    }

    @Test("switching off needs a current code or the password; a wrong one is refused beside the form")
    func switchOff() async throws {
        try await withTwoStepApp { app, clock in
            var (client, _, _) = try await Self.enrolled(app, clock: clock)
            _ = try await client.get("/account")
            let wrong = try await client.post("/account/two-step/off", [("code", ""), ("password", "not it")])
            #expect(wrong.status == .unprocessableEntity)
            #expect(wrong.body.string.contains("that password is not right"))
            let off = try await client.post("/account/two-step/off", [("code", ""), ("password", WebsiteWorld.password)])
            #expect(off.headers.first(name: .location) == "/account?two-step=off")
            #expect(try await RecoveryCode.query(on: app.db).count() == 0)
            _ = try await client.post("/signout")
            #expect(try await client.signIn(WebsiteWorld.developer).headers.first(name: .location) == "/studies")
        }
    }

    @Test("a wrong code at set-up leaves two-step sign-in off and says why beside the field")
    func wrongCodeAtSetUp() async throws {
        try await withTwoStepApp { app, _ in
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let page = try await client.get("/account/two-step")
            #expect(page.body.string.contains("two-step-qr"))
            let svg = try await client.get("/account/two-step/qr.svg")
            #expect(svg.headers.contentType?.subType == "svg+xml")
            #expect(svg.headers.first(name: .cacheControl)?.contains("no-store") == true)
            let wrong = try await client.post("/account/two-step", [("code", "12")])
            #expect(wrong.status == .unprocessableEntity)
            #expect(wrong.body.string.contains(#"id="code-problem""#))
            let researcher = try await Researcher.query(on: app.db).filter(\.$email == WebsiteWorld.developer).first()
            #expect(researcher?.totpSecret == nil)
        }
    }

    // MARK: Helpers

    private func withTwoStepApp(required: Bool = false, _ body: (Application, ManualTimeSource) async throws -> Void) async throws {
        // A whole second into a 30-second step, so "the previous step" is unambiguous.
        let start = (Date().timeIntervalSince1970 / 30).rounded(.down) * 30 + 10
        let clock = ManualTimeSource(now: Date(timeIntervalSince1970: start))
        try await withTestApp(timeSource: clock, adjusting: { $0.requireSecondFactor = required }) { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            try await body(app, clock)
        }
    }

    /// Sets up two-step sign-in from the account pages, as a researcher would with an app.
    private static func enrol(_ client: inout WebClient, clock: ManualTimeSource) async throws -> (TOTPGenerator, [String]) {
        let page = try await client.get("/account/two-step").body.string
        let secret = try #require(page.firstMatch(of: #/id="two-step-secret">([A-Z2-7 ]+)</#)).1.filter { $0 != " " }
        let totp = TOTPGenerator(key: try #require(Base32.decode(String(secret))))
        let done = try await client.post("/account/two-step", [("code", totp.code(at: clock.now()))])
        #expect(done.status == .ok)
        let codes = done.body.string.matches(of: #/<li><code>([A-Z0-9-]+)</code></li>/#).map { String($0.1) }
        return (totp, codes)
    }

    /// A client signed in as the developer, who has just set up two-step sign-in.
    private static func enrolled(_ app: Application, clock: ManualTimeSource) async throws -> (WebClient, TOTPGenerator, [String]) {
        var client = WebClient(app)
        _ = try await client.signIn(WebsiteWorld.developer)
        let (totp, codes) = try await enrol(&client, clock: clock)
        return (client, totp, codes)
    }

    /// Password, then the code page, then `code`.
    private static func signIn(_ client: inout WebClient, code: String) async throws -> TestingHTTPResponse {
        let password = try await client.signIn(WebsiteWorld.developer)
        #expect(password.headers.first(name: .location) == "/signin/code")
        _ = try await client.get("/signin/code")
        return try await client.post("/signin/code", [("code", code)])
    }
}

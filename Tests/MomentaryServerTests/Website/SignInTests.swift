import Fluent
import Foundation
@testable import MomentaryServer
import Synchronization
import Testing
import Vapor
import VaporTesting

@Suite("Website sign-in, sessions and CSRF", .serialized)
struct WebsiteSignInTests {
    @Test("pages need a signed-in researcher; the right password signs in and the cookie is HttpOnly and SameSite=Lax")
    func signIn() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            let anonymous = try await client.get("/studies/study-a/responses")
            #expect(anonymous.status == .seeOther)
            #expect(anonymous.headers.first(name: .location) == "/signin")

            _ = try await client.get("/signin")
            let response = try await client.post("/signin", [("email", "DEV@example.org"), ("password", WebsiteWorld.password)])
            #expect(response.status == .seeOther)
            let cookie = try #require(response.headers.first(name: .setCookie))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.lowercased().contains("samesite=lax"))
            #expect(!cookie.contains("Secure"), "not Secure outside production")
            let page = try await client.get("/studies/study-a/responses")
            #expect(page.status == .ok)
            #expect(page.body.string.contains("Kitchen in Study A"))
        }
    }

    @Test("the session cookie is Secure when a trusted proxy says the client came over https, and only then")
    func secureCookieBehindProxy() async throws {
        for (trusted, proto, secure) in [(true, "https", true), (true, "http", false), (false, "https", false)] {
            try await withTestApp(adjusting: { $0.trustedProxies = trusted ? ["unknown"] : [] }) { app, _ in
                _ = try await WebsiteWorld.make(on: app.db)
                var client = WebClient(app)
                client.forwardedProto = proto
                _ = try await client.get("/signin")
                let response = try await client.post("/signin", [("email", WebsiteWorld.developer), ("password", WebsiteWorld.password)])
                #expect(response.status == .seeOther)
                let cookie = try #require(response.headers.first(name: .setCookie))
                #expect(cookie.contains("Secure") == secure, "trusted proxy: \(trusted), X-Forwarded-Proto: \(proto): \(cookie)")
            }
        }
    }

    @Test("a wrong password or an unknown email is refused and signs nobody in")
    func wrongPassword() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            let wrong = try await client.signIn(WebsiteWorld.developer, password: "not the password")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.body.string.contains("The email or password is not right."))
            #expect(try await client.get("/studies").status == .seeOther)
            let unknown = try await client.signIn("nobody@example.org")
            #expect(unknown.status == .unauthorized)
        }
    }

    @Test("a disabled account cannot sign in, and disabling ends its open session")
    func disabled() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.researcher)
            #expect(try await client.get("/studies").status == .ok)
            let account = try #require(try await Researcher.query(on: app.db).filter(\.$email == WebsiteWorld.researcher).first())
            account.disabled = true
            try await account.save(on: app.db)
            #expect(try await client.get("/studies").status == .seeOther)
            var other = WebClient(app)
            let refused = try await other.signIn(WebsiteWorld.researcher)
            #expect(refused.status == .unauthorized)
            #expect(refused.body.string.contains("disabled"))
        }
    }

    @Test("signing out ends the session: the old cookie no longer opens pages")
    func signOut() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            #expect(try await client.get("/studies").status == .ok)
            let oldCookie = client.cookie
            let out = try await client.post("/signout")
            #expect(out.status == .seeOther)
            var replay = WebClient(app)
            replay.cookie = oldCookie
            #expect(try await replay.get("/studies").status == .seeOther)
        }
    }

    @Test("a form posted without or with a wrong CSRF token is refused with 403 and changes nothing", arguments: [WebClient.CSRF.missing, .wrong])
    func csrf(token: WebClient.CSRF) async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/study-a/invitees")
            let before = try await Fingerprint.take(app.db)
            let create = try await client.post("/studies/study-a/invitees", [("count", "5")], csrf: token)
            #expect(create.status == .forbidden)
            #expect(create.body.string.contains("did not come from this site"))
            let edit = try await client.post(
                "/studies/study-a/settings", StudyFormFields.valid(slug: "study-a", name: "Hijacked"), csrf: token)
            #expect(edit.status == .forbidden)
            #expect(try await client.post("/roles", [("name", "Sneaky")], csrf: token).status == .forbidden)
            #expect(try await Fingerprint.take(app.db) == before)
            // Signing in needs the token too.
            var fresh = WebClient(app)
            _ = try await fresh.get("/signin")
            let signIn = try await fresh.post("/signin", [("email", WebsiteWorld.developer), ("password", WebsiteWorld.password)], csrf: token)
            #expect(signIn.status == .forbidden)
        }
    }
}

extension WebClient.CSRF: CustomTestStringConvertible {
    var testDescription: String { self == .missing ? "missing token" : "wrong token" }
}

@Suite("Sign-in does not reveal which emails have accounts")
struct SignInEnumerationTests {
    /// `$2b$12$…`: the algorithm and cost, which decide how long a verification takes.
    private func costPrefix(_ hash: String) -> Substring { hash.prefix(7) }

    @Test("an unknown email is verified against a decoy hash of the same cost as a real account's")
    func unknownEmailCostsTheSame() async throws {
        let real = Researcher(email: "a@example.org", name: "A", passwordHash: try Bcrypt.hash("correct horse battery"),
                              roleID: UUID(), allStudies: true, createdAt: Date())
        let decoy = ResearcherPasswords.hashToVerify(for: nil)
        #expect(decoy.hasPrefix("$2"), "a bcrypt hash is verified for unknown emails too")
        #expect(costPrefix(decoy) == costPrefix(real.passwordHash))
        #expect(try await ResearcherPasswords.matches("correct horse battery", of: real))
        #expect(try await !ResearcherPasswords.matches("wrong", of: real))
        #expect(try await !ResearcherPasswords.matches("correct horse battery", of: nil))
        #expect(try await !ResearcherPasswords.matches("", of: nil))
    }
}

@Suite("Website sessions: stored only from sign-in, and they expire")
struct WebSessionLifetimeTests {
    @Test("visitors who are not signed in store no session: the sign-in form's token travels in a cookie")
    func visitorsStoreNothing() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            for _ in 0..<3 { _ = try await client.get("/signin") }
            #expect(try await client.get("/studies").status == .seeOther)
            let refused = try await client.post("/signin", [("email", WebsiteWorld.developer), ("password", "wrong password")])
            #expect(refused.status == .unauthorized)
            let forged = try await client.post("/signin", [("email", WebsiteWorld.developer), ("password", WebsiteWorld.password)], csrf: .wrong)
            #expect(forged.status == .forbidden, "the sign-in form still needs its token")
            #expect(try await SessionRecord.query(on: app.db).count() == 0)

            #expect(try await client.signIn(WebsiteWorld.developer).status == .seeOther)
            #expect(try await SessionRecord.query(on: app.db).count() == 1)
            #expect(try await client.get("/studies").status == .ok)
        }
    }

    @Test("a session idle for a day, or older than a week, ends and its row is deleted; sign-in prunes such rows")
    func sessionsExpire() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var idle = WebClient(app)
            _ = try await idle.signIn(WebsiteWorld.developer)
            var old = WebClient(app)
            _ = try await old.signIn(WebsiteWorld.researcher)
            let records = try await SessionRecord.query(on: app.db).all()
            #expect(records.count == 2)
            let now = Date().timeIntervalSince1970
            for record in records {
                if record.data[WebSession.researcherKey] == nil { continue }
                let isDeveloper = try await Researcher.find(UUID(uuidString: record.data[WebSession.researcherKey]!), on: app.db)?.email == WebsiteWorld.developer
                if isDeveloper {
                    record.data[WebSession.seenAtKey] = String(now - WebSession.idleLifetime - 60)
                } else {
                    record.data[WebSession.signedInAtKey] = String(now - WebSession.lifetime - 60)
                }
                try await record.save(on: app.db)
            }
            #expect(try await idle.get("/studies").headers.first(name: .location) == "/signin")
            #expect(try await SessionRecord.query(on: app.db).count() == 1, "the idle session's row is gone")
            var fresh = WebClient(app)
            _ = try await fresh.signIn(WebsiteWorld.observer)
            let left = try await SessionRecord.query(on: app.db).all()
            #expect(left.count == 1, "signing in pruned the week-old session")
            #expect(try await old.get("/studies").headers.first(name: .location) == "/signin")
        }
    }
}

/// Sign-in throttling (`SignInThrottle`) on a manual clock that the tests move. In-memory requests
/// have no peer, which `ClientAddress` calls "unknown"; trusting that as a proxy lets each client
/// name its own address in `X-Forwarded-For`.
@Suite("Sign-in throttling: back-off by address and by account, kept in the database", .serialized)
struct SignInThrottlingTests {
    static let attacker = "198.51.100.7"
    static let owner = "192.0.2.10"

    @Test("an address that fails for many different emails is refused (429, Retry-After) even with a right password")
    func sprayingIsThrottled() async throws {
        try await withThrottleApp { app, _, clock in
            var client = Self.client(app, from: Self.attacker)
            for index in 0..<SignInThrottle.freeFailures + 1 {
                let (wrong, _) = try await signIn(&client, "person\(index)@example.org", password: "Summer2026!", clock: clock)
                #expect(wrong.status == .unauthorized)
            }
            let (refused, held) = try await signIn(&client, WebsiteWorld.developer, clock: clock)
            #expect(held == nil, "the account has no failures: nothing to hold back")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers.first(name: .retryAfter) == "1")
            #expect(refused.body.string.contains("Too many failed sign-ins. Try again in 1 second."))
            #expect(try await client.get("/studies").status == .seeOther, "the right password was not even checked")
            let accounts = try await SignInFailure.query(on: app.db).filter(\.$key =~ "account:").all()
            #expect(accounts.count == 3 && accounts.allSatisfy { $0.failures == 1 && $0.blockedUntil == nil })
            #expect(try await AuditEvent.query(on: app.db).filter(\.$outcome == "429 throttled").count() == 1)

            clock.advance(by: 1)
            #expect(try await signIn(&client, WebsiteWorld.developer, clock: clock).0.status == .seeOther)
            #expect(try await client.get("/studies").status == .ok)
        }
    }

    @Test("the owner's right password from another address signs in after a short wait, however many guesses were made")
    func ownerIsNotLockedOut() async throws {
        try await withThrottleApp { app, _, clock in
            var attacker = Self.client(app, from: Self.attacker)
            for _ in 0..<10 {
                // Past the attacker address's back-off, so every guess is checked and counted.
                if let until = try await row(SignInThrottle.addressKey(Self.attacker), app.db)?.blockedUntil, until > clock.now() {
                    clock.set(until)
                }
                let (wrong, _) = try await signIn(&attacker, WebsiteWorld.developer, password: "guess", clock: clock)
                #expect(wrong.status == .unauthorized)
            }
            let account = try #require(try await row(SignInThrottle.accountKey(WebsiteWorld.developer), app.db))
            #expect(account.failures == 10)
            #expect(try #require(account.blockedUntil).timeIntervalSince(account.lastFailureAt) == 128)

            var owner = Self.client(app, from: Self.owner)
            let (signedIn, held) = try await signIn(&owner, WebsiteWorld.developer, clock: clock)
            #expect(held == SignInThrottle.maximumAccountDelay, "held back by the account's back-off, but briefly")
            #expect(signedIn.status == .seeOther)
            #expect(try await owner.get("/studies").status == .ok)
            #expect(try await row(SignInThrottle.accountKey(WebsiteWorld.developer), app.db) == nil, "success resets the account")
            #expect(try await row(SignInThrottle.addressKey(Self.attacker), app.db)?.failures == 10, "but not the attacker's address")
        }
    }

    @Test("back-off doubles with each failure, from 1 s after the third up to 15 minutes, and is forgotten after a quiet day")
    func backOffGrowsExponentially() async throws {
        try await withThrottleApp { app, _, clock in
            var client = Self.client(app, from: Self.attacker)
            var retryAfters = [String]()
            var stored = [TimeInterval]()
            for _ in 0..<8 {
                let (wrong, held) = try await signIn(&client, WebsiteWorld.developer, password: "guess", clock: clock)
                #expect(wrong.status == .unauthorized)
                #expect(held == nil)
                let address = try #require(try await row(SignInThrottle.addressKey(Self.attacker), app.db))
                guard let until = address.blockedUntil else { continue }
                stored.append(until.timeIntervalSince(address.lastFailureAt))
                let account = try #require(try await row(SignInThrottle.accountKey(WebsiteWorld.developer), app.db))
                #expect(account.blockedUntil == until)
                let (refused, _) = try await signIn(&client, WebsiteWorld.developer, clock: clock)
                #expect(refused.status == .tooManyRequests)
                retryAfters.append(refused.headers.first(name: .retryAfter) ?? "none")
                clock.set(until)
            }
            #expect(stored == [1, 2, 4, 8, 16, 32])
            #expect(retryAfters == ["1", "2", "4", "8", "16", "32"])
            #expect(SignInThrottle.backOff(afterFailures: 12) == 512)
            #expect(SignInThrottle.backOff(afterFailures: 13) == 900, "capped at 15 minutes")
            #expect(SignInThrottle.backOff(afterFailures: 1_000) == 900)

            clock.advance(by: SignInThrottle.forgetAfter + 1)
            let (wrong, _) = try await signIn(&client, WebsiteWorld.developer, password: "guess", clock: clock)
            #expect(wrong.status == .unauthorized)
            #expect(try await row(SignInThrottle.addressKey(Self.attacker), app.db)?.failures == 1)
        }
    }

    @Test("the back-off survives a restart: a new server on the same database still refuses the address")
    func survivesRestart() async throws {
        try await withThrottleApp { app, configuration, clock in
            var client = Self.client(app, from: Self.attacker)
            for _ in 0..<SignInThrottle.freeFailures + 2 {
                _ = try await signIn(&client, WebsiteWorld.developer, password: "guess", clock: clock)
                clock.advance(by: 1)
            }
            let restarted = try await Application.make(.testing)
            restarted.logger.logLevel = .warning
            do {
                try await configure(restarted, configuration, timeSource: clock)
                var again = Self.client(restarted, from: Self.attacker)
                let (refused, _) = try await signIn(&again, WebsiteWorld.developer, clock: clock)
                #expect(refused.status == .tooManyRequests)
                #expect(refused.headers.first(name: .retryAfter) == "1", "the 4th failure's 2 s, 1 s of it gone")
                var owner = Self.client(restarted, from: Self.owner)
                let (signedIn, held) = try await signIn(&owner, WebsiteWorld.developer, clock: clock)
                #expect(held == 1, "the account's back-off is remembered too")
                #expect(signedIn.status == .seeOther)
            } catch {
                try? await restarted.asyncShutdown()
                throw error
            }
            try await restarted.asyncShutdown()
        }
    }

    @Test("a successful sign-in clears the account's and the address's failures")
    func successResets() async throws {
        try await withThrottleApp { app, _, clock async throws in
            var client = Self.client(app, from: Self.owner)
            for _ in 0..<SignInThrottle.freeFailures + 1 {
                #expect(try await signIn(&client, WebsiteWorld.developer, password: "typo", clock: clock).0.status == .unauthorized)
            }
            clock.advance(by: 1)
            #expect(try await signIn(&client, WebsiteWorld.developer, clock: clock).0.status == .seeOther)
            #expect(try await SignInFailure.query(on: app.db).count() == 0)
            // Counting starts again: two more typos in a row are both checked, none refused.
            var other = Self.client(app, from: Self.owner)
            for _ in 0..<SignInThrottle.freeFailures {
                #expect(try await signIn(&other, WebsiteWorld.developer, password: "typo", clock: clock).0.status == .unauthorized)
            }
            #expect(try await row(SignInThrottle.accountKey(WebsiteWorld.developer), app.db)?.failures == SignInThrottle.freeFailures)
        }
    }

    // MARK: Helpers

    private func withThrottleApp(_ body: (Application, Configuration, ManualTimeSource) async throws -> Void) async throws {
        // A whole second, so stored times (SQLite keeps seconds since 1970 as a double, PostgreSQL
        // microseconds) read back exactly.
        let clock = ManualTimeSource(now: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        try await withTestApp(timeSource: clock, adjusting: { $0.trustedProxies = ["unknown"] }) { app, configuration in
            _ = try await WebsiteWorld.make(on: app.db)
            try await body(app, configuration, clock)
        }
    }

    private static func client(_ app: Application, from address: String) -> WebClient {
        var client = WebClient(app)
        client.forwardedFor = address
        return client
    }

    private func row(_ key: String, _ db: any Database) async throws -> SignInFailure? {
        try await SignInFailure.query(on: db).filter(\.$key == key).first()
    }

    /// Signs in on the manual clock. When the server holds the answer back (an account in
    /// back-off), moves the clock to the end of the wait; returns the answer and how long it was held.
    private func signIn(
        _ client: inout WebClient, _ email: String, password: String = WebsiteWorld.password, clock: ManualTimeSource
    ) async throws -> (TestingHTTPResponse, held: TimeInterval?) {
        let finished = Flag()
        let sending = client
        let task = Task {
            var sending = sending
            defer { finished.set() }
            let response = try await sending.signIn(email, password: password)
            return (response, sending)
        }
        var held: TimeInterval?
        while !finished.isSet {
            if let deadline = clock.earliestDeadline {
                held = deadline.timeIntervalSince(clock.now())
                clock.set(deadline)
                break
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        let (response, updated) = try await task.value
        client = updated
        return (response, held)
    }
}

private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

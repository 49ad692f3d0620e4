import Fluent
import Foundation
@testable import MomentaryServer
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

    @Test("after five failed sign-ins for an email, the next attempt is refused with 429 even with the right password")
    func throttling() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            for _ in 0..<SignInThrottle.limit {
                #expect(try await client.signIn(WebsiteWorld.developer, password: "guess").status == .unauthorized)
            }
            let blocked = try await client.signIn(WebsiteWorld.developer)
            #expect(blocked.status == .tooManyRequests)
            #expect(try await client.get("/studies").status == .seeOther)
            // Another account is not affected.
            #expect(try await client.signIn(WebsiteWorld.observer).status == .seeOther)
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

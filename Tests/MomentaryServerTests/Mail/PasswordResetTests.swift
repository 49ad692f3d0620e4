import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// Password reset as a researcher meets it: the forgot form, the email that a real SMTP server
/// (aiosmtpd) takes, the link, the new password; and what the form must not give away.
@Suite("Resetting a researcher's password by email", .serialized)
struct PasswordResetTests {
    private func withMailingApp(
        _ server: LocalSMTPServer, clock: ManualTimeSource = ManualTimeSource(now: Date()),
        _ body: (Application, ManualTimeSource) async throws -> Void
    ) async throws {
        try await withTestApp(timeSource: clock, adjusting: { $0.mail = .local(server, security: .none) }) { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            try await body(app, clock)
        }
    }

    private func link(in body: String) throws -> String {
        let range = try #require(body.range(of: #"/signin/reset\?token=[A-Za-z0-9]+"#, options: .regularExpression), "no link in: \(body)")
        return String(body[range])
    }

    @Test("the emailed link sets a new password once; the old one and every session stop working")
    func resetByEmail() async throws {
        let server = try await LocalSMTPServer()
        defer { server.stop() }
        try await withMailingApp(server) { app, _ in
            var other = WebClient(app)
            #expect(try await other.signIn(WebsiteWorld.developer).status == .seeOther)

            var client = WebClient(app)
            _ = try await client.get("/signin/forgot")
            let asked = try await client.post("/signin/forgot", [("email", "  DEV@example.org ")])
            #expect(asked.status == .ok)
            #expect(asked.body.string.contains("a link to choose a new password is on its way"))
            #expect(try await app.mail?.deliverDue() == 1)
            let received = try await server.waitForMessages(1)
            try #require(received.count == 1)
            #expect(received[0].rcpt_tos == [WebsiteWorld.developer])
            #expect(received[0].subject == "Reset your Momentary password")
            let path = try link(in: received[0].body)

            #expect(try await client.get(path).status == .ok)
            let token = String(path.split(separator: "=").last!)
            let short = try await client.post("/signin/reset", [("token", token), ("password", "short"), ("confirm", "short")])
            #expect(short.status == .unprocessableEntity)
            #expect(short.body.string.contains("at least 10 characters"))
            let mismatch = try await client.post("/signin/reset", [("token", token), ("password", "a new passphrase"), ("confirm", "another one")])
            #expect(mismatch.status == .unprocessableEntity)
            let done = try await client.post("/signin/reset", [("token", token), ("password", "a new passphrase"), ("confirm", "a new passphrase")])
            #expect(done.status == .seeOther)
            #expect(done.headers.first(name: .location) == "/signin?reset=1")
            #expect(try await client.get("/signin?reset=1").body.string.contains("Your password is changed"))

            let again = try await client.post("/signin/reset", [("token", token), ("password", "a third passphrase"), ("confirm", "a third passphrase")])
            #expect(again.status == .notFound, "a link works once")
            #expect(try await other.get("/studies").status == .seeOther, "the session signed in before the reset has ended")
            var fresh = WebClient(app)
            #expect(try await fresh.signIn(WebsiteWorld.developer).status == .unauthorized)
            #expect(try await fresh.signIn(WebsiteWorld.developer, password: "a new passphrase").status == .seeOther)
        }
    }

    @Test("an unknown email gets the same answer and nothing is sent; a link expires after an hour")
    func sameAnswerAndExpiry() async throws {
        let server = try await LocalSMTPServer()
        defer { server.stop() }
        try await withMailingApp(server) { app, clock in
            var client = WebClient(app)
            _ = try await client.get("/signin/forgot")
            let unknown = try await client.post("/signin/forgot", [("email", "nobody@example.org")])
            let known = try await client.post("/signin/forgot", [("email", WebsiteWorld.researcher)])
            #expect(unknown.status == known.status)
            #expect(unknown.body.string.replacingOccurrences(of: "nobody@example.org", with: WebsiteWorld.researcher) == known.body.string)
            #expect(try await app.mail?.deliverDue() == 1)
            let received = try await server.waitForMessages(1)
            #expect(received.map(\.rcpt_tos) == [[WebsiteWorld.researcher]])

            clock.advance(by: PasswordResets.validFor + 1)
            let path = try link(in: try #require(received.first).body)
            let expired = try await client.get(path)
            #expect(expired.status == .notFound)
            #expect(expired.body.string.contains("This link does not work"))
            let invalid = try await client.get("/signin/reset?token=madeup")
            #expect(invalid.status == .notFound)
            let bad = try await client.post("/signin/forgot", [("email", "not an address")])
            #expect(bad.status == .unprocessableEntity)
        }
    }

    @Test("at most three links an hour reach one account, and one address may ask five times in a quarter of an hour")
    func limits() async throws {
        let server = try await LocalSMTPServer()
        defer { server.stop() }
        try await withMailingApp(server) { app, _ in
            var client = WebClient(app)
            _ = try await client.get("/signin/forgot")
            var statuses: [HTTPStatus] = []
            for _ in 0..<6 { statuses.append(try await client.post("/signin/forgot", [("email", WebsiteWorld.developer)]).status) }
            #expect(statuses == [.ok, .ok, .ok, .ok, .ok, .tooManyRequests])
            #expect(try await app.mail?.deliverDue() == PasswordResets.perAccountPerHour)
        }
    }

    @Test("without mail settings the page says a password cannot be reset here")
    func withoutMail() async throws {
        try await withTestApp { app, _ in
            var client = WebClient(app)
            let page = try await client.get("/signin/forgot")
            #expect(page.status == .ok)
            #expect(page.body.string.contains("does not send email"))
            #expect(try await client.get("/signin").body.string.contains("/signin/forgot"))
        }
    }
}

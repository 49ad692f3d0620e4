import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

@Suite("Website: passwords")
struct PasswordTests {
    /// The password shown once on the researchers page after a reset.
    static func shownPassword(in page: String) -> String? {
        guard let start = page.range(of: "shown only this once: <code>") else { return nil }
        return String(page[start.upperBound...].prefix { $0 != "<" })
    }

    @Test("a manager resets a password: it is shown once, the old one stops working and the researcher's sessions end")
    func reset() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var researcher = WebClient(app)
            _ = try await researcher.signIn(WebsiteWorld.researcher)
            #expect(try await researcher.get("/studies").status == .ok)

            var manager = WebClient(app)
            _ = try await manager.signIn(WebsiteWorld.developer)
            _ = try await manager.get("/researchers")
            let account = try #require(try await Researcher.query(on: app.db).filter(\.$email == WebsiteWorld.researcher).first())
            let reset = try await manager.post("/researchers/\(try account.requireID())/password")
            #expect(reset.status == .ok)
            #expect(reset.body.string.contains("New password for \(WebsiteWorld.researcher)"))
            let password = try #require(Self.shownPassword(in: reset.body.string))
            #expect(password.count == 16)

            #expect(try await researcher.get("/studies").status == .seeOther, "the researcher's open session ended")
            #expect(try await manager.get("/studies").status == .ok, "the manager's own session goes on")
            var fresh = WebClient(app)
            #expect(try await fresh.signIn(WebsiteWorld.researcher).status == .unauthorized, "the old password no longer works")
            #expect(try await fresh.signIn(WebsiteWorld.researcher, password: password).status == .seeOther)
        }
    }

    @Test("researchers change their own password with the current one; mistakes are named and change nothing")
    func change() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.researcher)
            var elsewhere = WebClient(app)
            _ = try await elsewhere.signIn(WebsiteWorld.researcher)
            #expect(try await client.get("/account").status == .ok)
            let newPassword = "a much better passphrase"
            for (fields, problem) in [
                ([("current", "wrong password!"), ("new", newPassword), ("repeated", newPassword)], "that is not your password"),
                ([("current", WebsiteWorld.password), ("new", "short"), ("repeated", "short")], "at least 10 characters"),
                ([("current", WebsiteWorld.password), ("new", newPassword), ("repeated", newPassword + "!")], "the two entries differ"),
            ] {
                let refused = try await client.post("/account/password", fields)
                #expect(refused.status == .unprocessableEntity)
                #expect(refused.body.string.contains(problem))
            }
            #expect(try await elsewhere.get("/studies").status == .ok, "nothing changed yet")

            let changed = try await client.post(
                "/account/password", [("current", WebsiteWorld.password), ("new", newPassword), ("repeated", newPassword)])
            #expect(changed.status == .seeOther)
            #expect(try await client.get("/studies").status == .ok, "this session goes on")
            #expect(try await elsewhere.get("/studies").status == .seeOther, "the other session ended")
            var fresh = WebClient(app)
            #expect(try await fresh.signIn(WebsiteWorld.researcher, password: newPassword).status == .seeOther)
        }
    }

    @Test("saving a researcher's role keeps the studies they are limited to")
    func updateKeepsStudies() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var manager = WebClient(app)
            _ = try await manager.signIn(WebsiteWorld.developer)
            let page = try await manager.get("/researchers")
            let studyA = try world.studyA.requireID().uuidString
            #expect(page.body.string.contains("<option value=\"\(studyA)\" selected>"), "the limited researcher's study is preselected")
        }
    }
}

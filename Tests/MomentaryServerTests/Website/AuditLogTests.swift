import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

@Suite("Website: the audit log")
struct AuditLogTests {
    @Test("sign-ins, changes (allowed or refused) and exports are recorded with who, what, when and from where; never form contents")
    func records() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var intruder = WebClient(app)
            #expect(try await intruder.signIn(WebsiteWorld.developer, password: "guess-one").status == .unauthorized)
            var observer = WebClient(app)
            _ = try await observer.signIn(WebsiteWorld.observer)
            _ = try await observer.get("/studies/study-a/settings")
            #expect(try await observer.post("/studies/study-a/settings", StudyFormFields.valid(slug: "study-a", name: "Renamed")).status == .forbidden)
            var developer = WebClient(app)
            _ = try await developer.signIn(WebsiteWorld.developer)
            _ = try await developer.get("/studies/study-a/settings")
            #expect(try await developer.post("/studies/study-a/settings", StudyFormFields.valid(slug: "study-a", name: "Study A")).status == .seeOther)
            #expect(try await developer.get("/studies/study-a/export/download?format=wide").status == .ok)

            let events = try await AuditEvent.query(on: app.db).sort(\.$occurredAt).all()
            let summary = events.map { "\($0.researcherEmail ?? "-") \($0.action) \($0.outcome)" }
            #expect(summary == [
                "\(WebsiteWorld.developer) sign in 401 failed",
                "\(WebsiteWorld.observer) sign in 303",
                "\(WebsiteWorld.observer) save study settings 403",
                "\(WebsiteWorld.developer) sign in 303",
                "\(WebsiteWorld.developer) save study settings 303",
                "\(WebsiteWorld.developer) export 200",
            ])
            #expect(events.last?.target == "/studies/study-a/export/download?format=wide")
            #expect(events.allSatisfy { !$0.address.isEmpty }, "the client address is recorded (the in-memory test client has none: \"unknown\")")
            let everything = events.map { "\($0.action) \($0.target) \($0.outcome)" }.joined()
            #expect(!everything.contains(WebsiteWorld.password) && !everything.contains("guess-one"), "no form contents")

            let page = try await developer.get("/audit?researcher=\(WebsiteWorld.observer)").body.string
            #expect(page.contains("save study settings") && page.contains("403") && !page.contains("export/download"), "only the observer's actions")
            var researcher = WebClient(app)
            _ = try await researcher.signIn(WebsiteWorld.researcher)
            #expect(try await researcher.get("/audit").status == .forbidden, "only those who manage researchers see it")
        }
    }
}

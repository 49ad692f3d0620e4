import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// The rules for creating roles and surveys live in services (`RoleService`, `SurveyStore.add`),
/// which the website's handlers only call.
@Suite("Creating roles and surveys")
struct RoleAndSurveyCreationTests {
    @Test("a role's name is unique without regard to case, bounded, and its permissions known; a refusal stores nothing")
    func roleRules() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            let before = try await Role.query(on: app.db).count()
            let refusal = await #expect(throws: RoleService.Refusal.self) {
                try await RoleService.create(
                    name: "  observer ", description: String(repeating: "d", count: 501), permissions: ["studies.view", "fly"], on: app.db, now: Date())
            }
            #expect(refusal?.problems == [
                "Description: at most 500 characters.", "Permissions: unknown fly.", "Name: there is already a role called “Observer”.",
            ])
            let long = await #expect(throws: RoleService.Refusal.self) {
                try await RoleService.create(name: String(repeating: "n", count: 61), description: "", permissions: [], on: app.db, now: Date())
            }
            #expect(long?.problems == ["Name: at most 60 characters."])
            #expect(try await Role.query(on: app.db).count() == before)

            let role = try await RoleService.create(name: " Analyst ", description: "", permissions: ["responses.view", "responses.view"], on: app.db, now: Date())
            #expect(role.name == "Analyst")
            #expect(try await RolePermission.query(on: app.db).filter(\.$role.$id == role.requireID()).count() == 1)
        }
    }

    @Test("the roles page shows the service's refusal next to the form, and deletes only unused custom roles")
    func rolesPage() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            #expect(try await client.get(SiteRoute.roles.path()).status == .ok)
            let refused = try await client.post(SiteRoute.roles.path(), [("name", "OBSERVER")])
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains("there is already a role called “Observer”"))

            let builtIn = try #require(try await Role.query(on: app.db).filter(\.$builtIn == true).first())
            #expect(try await client.post(SiteRoute.deleteRole.path(builtIn.requireID())).status == .conflict)
            let observer = try #require(try await Role.query(on: app.db).filter(\.$name == "Observer").first())
            #expect(try await client.post(SiteRoute.deleteRole.path(observer.requireID())).status == .conflict, "the observer account holds it")

            let unused = try await RoleService.create(name: "Unused", description: "", permissions: ["studies.view"], on: app.db, now: Date())
            #expect(try await client.post(SiteRoute.deleteRole.path(unused.requireID())).status == .seeOther)
            #expect(try await Role.find(unused.requireID(), on: app.db) == nil)
            #expect(try await RolePermission.query(on: app.db).filter(\.$role.$id == unused.requireID()).count() == 0)
        }
    }

    @Test("surveys added at once with one name: one is added, the other refused; positions follow the list")
    func concurrentSurveys() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let studyID = try world.studyA.requireID()
            let document = try SurveyStore.text(of: SampleSurveys.experienceSampling)
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        do {
                            _ = try await SurveyStore.add(
                                kind: .esm, name: "Evening", document: document, toStudy: studyID, authorID: nil, on: app.db, now: Date())
                            return true
                        } catch let refusal as SurveySetRules.Refusal {
                            #expect(refusal.description == "This study already has a survey called “Evening”.")
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            let surveys = try await Survey.query(on: app.db).filter(\.$study.$id == studyID).sort(\.$position).all()
            #expect(surveys.map(\.name) == ["Feelings", "Evening"])
            #expect(surveys.map(\.position) == [0, 1])
            #expect(surveys.map(\.currentVersion) == [1, 1], "each survey is created with its first version")
        }
    }
}

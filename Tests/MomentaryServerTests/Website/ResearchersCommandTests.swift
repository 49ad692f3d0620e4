import ArgumentParser
import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor

@Suite("momentary researchers create", .serialized)
struct WebsiteResearchersCommandTests {
    /// Runs `momentary researchers …` in-process and captures what it prints.
    private func run(_ arguments: [String]) async -> (code: Int32, output: String, errors: String) {
        await runCommand(["researchers"] + arguments)
    }

    @Test("creates a Developer with a generated password printed once, which then signs in on the website")
    func createWithGeneratedPassword() async throws {
        let data = TestScratch.file("momentary-researchers").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let result = await run(["create", "--email", "First@Example.org", "--role", "developer", "--data", data])
        #expect(result.code == 0, "\(result.errors)")
        let passwordLine = try #require(result.output.split(separator: "\n").first { $0.hasPrefix("Password: ") })
        let password = String(passwordLine.dropFirst("Password: ".count))
        #expect(password.count >= ResearcherAccounts.minimumPasswordLength)

        let again = await run(["create", "--email", "first@example.org", "--role", "Developer", "--data", data])
        #expect(again.code == 2)
        #expect(again.errors.contains("already a researcher"))
        let badRole = await run(["create", "--email", "x@example.org", "--role", "Boss", "--data", data])
        #expect(badRole.code == 2)
        #expect(badRole.errors.contains("There is no role “Boss”; roles: Developer, Researcher."))
        let shortPassword = await run(["create", "--email", "y@example.org", "--role", "Researcher", "--password", "short", "--data", data])
        #expect(shortPassword.code == 2)

        let configuration = try Configuration.load(environment: [:], dataDirectoryOverride: data)
        try await AppFactory.withApp(configuration) { app in
            let researcher = try #require(try await Researcher.query(on: app.db).filter(\.$email == "first@example.org").first())
            #expect(try Bcrypt.verify(password, created: researcher.passwordHash))
            #expect(researcher.allStudies)
            #expect(try await researcher.$role.get(on: app.db).name == "Developer")
            #expect(try await Researcher.query(on: app.db).count() == 1)
        }
    }
}

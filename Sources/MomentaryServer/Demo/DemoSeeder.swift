import Fluent
import Foundation
import MomentaryCore
import Vapor

/// `serve --demo`: a study anyone can join, with Mappiness-style surveys, and one researcher account
/// whose password is printed once. Seeding happens only when the demo study does not exist yet, so a
/// second start reuses the data untouched.
enum DemoSeeder {
    static let slug = "demo"
    static let researcherEmail = "demo@momentary.local"

    static func seedIfNeeded(on db: any Database, say: (String) -> Void) async throws {
        if try await Study.query(on: db).filter(\.$slug == slug).first() != nil {
            say("The demo study “\(slug)” already exists; nothing seeded.")
            return
        }
        let now = Date()
        let researcherExists = try await Researcher.query(on: db).filter(\.$email == researcherEmail).first() != nil
        // Bcrypt is deliberately slow: hash before the transaction so it holds no lock meanwhile.
        let password = SecretCode.generate(length: 16, from: .unambiguous)
        let passwordHash = try await ResearcherPasswords.hash(password)

        try await db.transaction { db in
            let study = Study(slug: slug, name: "Momentary demo", now: now)
            study.defaultTimeZone = "Europe/London"
            // Everything participants get back is on, so all of it can be tried at once.
            study.publicStatisticsEnabled = true
            try await study.save(on: db)
            let studyID = try study.requireID()
            try await SurveyStore.create(
                studyID: studyID, kind: .registration, name: "Registration", position: 0,
                document: try SurveyStore.text(of: SampleSurveys.registration), on: db, now: now)
            try await SurveyStore.create(
                studyID: studyID, kind: .esm, name: "How are you feeling?", position: 1,
                document: try SurveyStore.text(of: SampleSurveys.experienceSampling), on: db, now: now)
            if !researcherExists {
                guard let developer = try await Role.query(on: db).filter(\.$name == "Developer").first() else {
                    throw CommandFailure("The built-in Developer role is missing; run `momentary migrate`.")
                }
                let researcher = Researcher(
                    email: researcherEmail, name: "Demo Researcher", passwordHash: passwordHash,
                    roleID: try developer.requireID(), allStudies: true, createdAt: now)
                try await researcher.save(on: db)
            }
        }
        say("Created the demo study “\(slug)”: open to anyone, server-scheduled, random beeps twice a day.")
        if !researcherExists {
            say("Researcher account: \(researcherEmail)  password: \(password)  (shown only this once; keep it)")
        }
    }
}

extension Application {
    /// Seeds the demo study (as `serve --demo` does) for tools outside this module, such as the benchmarks.
    public func seedDemoStudy() async throws {
        try await DemoSeeder.seedIfNeeded(on: db) { _ in }
    }
}

import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

@Suite("Website survey versions and deactivation")
struct SurveyVersionTests {
    /// The sample survey with its first question reworded: a change the comparison must show.
    static func reworded() throws -> (text: String, wording: String) {
        var document = SampleSurveys.experienceSampling
        document.content[0].text = "How do you feel at this very moment?"
        return (try SurveyStore.text(of: document), document.content[0].text.text)
    }

    @Test("versions are listed; one shows its preview and its changes; restoring saves it again as the newest")
    func versions() async throws {
        try await withSignedInDeveloper { app, world, client in
            let survey = "/studies/study-a/surveys/\(world.surveyA)"
            let (text, wording) = try Self.reworded()
            _ = try await client.get(survey)
            #expect(try await client.post(survey, [("document", text)]).status == .seeOther)

            let list = try await client.get("\(survey)/versions")
            #expect(list.status == .ok)
            #expect(list.body.string.contains("Version 2</a> (current)"))
            #expect(list.body.string.contains("\(survey)/versions/1\""))
            #expect(list.body.string.contains(WebsiteWorld.developer), "version 2 names who saved it")

            let second = try await client.get("\(survey)/versions/2").body.string
            let original = SampleSurveys.experienceSampling.content[0].text.text
            #expect(second.contains("From version 1 to version 2"))
            #expect(second.contains("by \(WebsiteWorld.developer)"), "the version page names who saved it")
            #expect(second.contains("<tr class=\"removed\">") && second.contains(htmlEscaped(original)))
            #expect(second.contains("<tr class=\"added\">") && second.contains(htmlEscaped(wording)))
            #expect(second.contains("unchanged lines"), "long unchanged runs are folded")
            #expect(!second.contains("Restore this version"), "the current version cannot be restored")
            let first = try await client.get("\(survey)/versions/1?against=2").body.string
            #expect(first.contains("From version 2 to version 1"))
            #expect(first.contains("Restore this version"))

            let restored = try await client.post("\(survey)/versions/1/restore")
            #expect(restored.status == .seeOther)
            #expect(restored.headers.first(name: .location) == "\(survey)?saved=1&restored=1")
            let saved = try await SurveyVersion.query(on: app.db).filter(\.$survey.$id == world.surveyA).sort(\.$version).all()
            #expect(saved.map(\.version) == [1, 2, 3], "history is kept; the restored version is the newest")
            #expect(saved[2].document == saved[0].document)
            #expect(try await Survey.find(world.surveyA, on: app.db)?.currentVersion == 3)
            #expect(try await client.get("\(survey)?saved=1&restored=1").body.string.contains("Version 1 restored as version 3."))

            let identical = try await client.get("\(survey)/versions/3?against=1").body.string
            #expect(identical.contains("Version 1 and version 3 are the same."))
            #expect(try await client.get("\(survey)/versions/9").status == .notFound)
            #expect(try await client.get("\(survey)/versions/2?against=9").status == .badRequest)
            #expect(try await client.post("\(survey)/versions/9/restore").status == .notFound)
        }
    }

    @Test("the preview frame carries a version's document for the app's survey screen, may be framed by the website only, and refuses unknown versions")
    func appPreview() async throws {
        try await withSignedInDeveloper { app, world, client in
            let survey = "/studies/study-a/surveys/\(world.surveyA)"
            let (text, wording) = try Self.reworded()
            _ = try await client.get(survey)
            #expect(try await client.post(survey, [("document", text)]).status == .seeOther)

            let editor = try await client.get(survey).body.string
            #expect(editor.contains("<iframe class=\"app-preview\" src=\"\(survey)/preview\""))
            let current = try await client.get("\(survey)/preview")
            #expect(current.status == .ok)
            #expect(current.headers.first(name: "X-Frame-Options") == "SAMEORIGIN")
            let policy = try #require(current.headers.first(name: "Content-Security-Policy"))
            #expect(policy.contains("frame-ancestors 'self'") && policy.contains("script-src 'self'") && !policy.contains("unsafe"))
            #expect(current.body.string.contains("<script type=\"module\" src=\"/app/js/preview.js\"></script>"))
            #expect(current.body.string.contains(htmlEscaped(wording)), "the current version's document, escaped into an attribute")
            let first = try await client.get("\(survey)/preview?version=1").body.string
            #expect(first.contains(htmlEscaped(SampleSurveys.experienceSampling.content[0].text.text)) && !first.contains(htmlEscaped(wording)))
            #expect(try await client.get("\(survey)/versions/1").body.string.contains("\(survey)/preview?version=1"))

            #expect(try await client.get("\(survey)/preview?version=9").status == .notFound)
            #expect(try await client.get("\(survey)/preview?version=x").status == .badRequest)
            #expect(try await client.get("/studies/study-a").headers.first(name: "X-Frame-Options") == "DENY", "other pages are not framed")
            _ = app
        }
    }

    @Test("a version that breaks today's rules is not restored: its problems are shown and nothing is saved")
    func restoreChecksTheRules() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            // Saved before a rule existed: a misspelt field, refused since.
            var document = SampleSurveys.experienceSampling
            document.content[0].extraFields["requried"] = .bool(true)
            let survey = try #require(try await Survey.find(world.surveyA, on: app.db))
            try await SurveyStore.saveVersion(of: survey, document: try SurveyStore.text(of: document), authorID: nil, on: app.db, now: Date())
            try await SurveyStore.saveVersion(
                of: survey, document: try SurveyStore.text(of: SampleSurveys.experienceSampling), authorID: nil, on: app.db, now: Date())

            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/study-a/surveys")
            let refused = try await client.post("/studies/study-a/surveys/\(world.surveyA)/versions/2/restore")
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains("Not restored"))
            #expect(refused.body.string.contains(htmlEscaped("“requried” is not a field; perhaps “required” was meant")))
            #expect(try await Survey.find(world.surveyA, on: app.db)?.currentVersion == 3)
        }
    }

    @Test("a deactivated survey is asked by no beep; with no active survey the study says it cannot be answered and refuses to register")
    func deactivation() async throws {
        try await withSignedInDeveloper { app, world, client in
            let active = "/studies/study-a/surveys/\(world.surveyA)/active"
            _ = try await client.get("/studies/study-a/surveys")
            #expect(try await client.post(active, [("active", "false")]).status == .seeOther)
            #expect(try await Survey.find(world.surveyA, on: app.db)?.active == false)
            let list = try await client.get("/studies/study-a/surveys").body.string
            #expect(list.contains("Deactivated"))
            #expect(list.contains("It has no active survey to answer at a beep"))
            let studyID = try world.studyA.requireID()
            #expect(try await SurveyCatalog.defaultExperienceSurvey(of: studyID, on: app.db) == nil)
            #expect(try await StudyReadiness.check(world.studyA, on: app.db).isReady == false)

            #expect(try await client.post(active, [("active", "maybe")]).status == .badRequest)
            #expect(try await client.post(active, [("active", "true")]).status == .seeOther)
            #expect(try await SurveyCatalog.defaultExperienceSurvey(of: studyID, on: app.db)?.id == world.surveyA)

            var observer = WebClient(app)
            _ = try await observer.signIn(WebsiteWorld.observer)
            _ = try await observer.get("/studies")
            #expect(try await observer.post(active, [("active", "false")]).status == .forbidden, "only those who edit the study")
            #expect(try await Survey.find(world.surveyA, on: app.db)?.active == true)
        }
    }
}

@Suite("Saving survey versions at once")
struct ConcurrentSurveySaveTests {
    @Test("saves made at the same moment get consecutive versions; none fails, none is lost")
    func concurrentSaves() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let document = try SurveyStore.text(of: SampleSurveys.experienceSampling)
            let surveyID = world.surveyA
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        // Each save starts from its own copy, read before any of the others wrote.
                        let survey = try #require(try await Survey.find(surveyID, on: app.db))
                        try await SurveyStore.saveVersion(of: survey, document: document, authorID: nil, on: app.db, now: Date())
                    }
                }
                try await group.waitForAll()
            }
            let versions = try await SurveyVersion.query(on: app.db).filter(\.$survey.$id == surveyID).all(\.$version)
            #expect(versions.sorted() == Array(1...9))
            #expect(try await Survey.find(surveyID, on: app.db)?.currentVersion == 9)
        }
    }

    @Test("of two changes made to the same version at once, one is saved and the other refused with 409")
    func changesToTheSameVersion() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let document = try SurveyStore.text(of: SampleSurveys.experienceSampling)
            let surveyID = world.surveyA
            // Both read version 1 before either saves, as two builder forms opened together would.
            let first = try #require(try await Survey.find(surveyID, on: app.db))
            let second = try #require(try await Survey.find(surveyID, on: app.db))
            try await SurveyStore.saveVersion(of: first, document: document, authorID: nil, basedOn: 1, on: app.db, now: Date())
            await #expect(throws: Abort.self) {
                try await SurveyStore.saveVersion(of: second, document: document, authorID: nil, basedOn: 1, on: app.db, now: Date())
            }
            let versions = try await SurveyVersion.query(on: app.db).filter(\.$survey.$id == surveyID).all(\.$version)
            #expect(versions.sorted() == [1, 2], "the refused change left nothing behind")
            #expect(try await Survey.find(surveyID, on: app.db)?.currentVersion == 2)
        }
    }
}

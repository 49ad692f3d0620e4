import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// The study settings form as a person fills it in.
@Suite("Website: the study settings form")
struct StudySettingsFormTests {
    @Test("hours are 15-minute choices, the time zone offers every IANA name, and a new study starts in the server's zone")
    func choices() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let new = try await client.get("/studies/new").body.string
            #expect(new.contains("<select id=\"defaultStart\" name=\"defaultStart\""))
            #expect(new.contains("<option value=\"08:15\" >08:15</option>") && new.contains("<option value=\"23:45\" >23:45</option>"))
            #expect(!new.contains("value=\"08:10\""), "no times off the 15-minute grid")
            #expect(new.contains("list=\"time-zones\"") && new.contains("<option value=\"Europe/Berlin\">")
                    && new.contains("<option value=\"Pacific/Auckland\">"))
            let serverZone = TimeZone.current.identifier.contains("/") ? TimeZone.current.identifier : "UTC"
            #expect(new.contains("name=\"defaultTimeZone\" list=\"time-zones\" autocomplete=\"off\" value=\"\(serverZone)\""))
            #expect(StudyFormPage.clockChoices(selected: "09:10").map(\.value).contains("09:10"),
                    "a stored time off the grid stays choosable")
        }
    }

    @Test("a study end is saved as a date or days per participant; a wrong one is refused next to its field")
    func studyEnd() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/new")
            let valid = StudyFormFields.valid(slug: "ending", name: "Ending")
            let refused = try await client.post("/studies", valid + [("endsOn", "2027-02-30"), ("endsAfterDays", "0")])
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains(#"id="endsOn-problem""#) && refused.body.string.contains("is not a date"))
            #expect(refused.body.string.contains(#"id="endsAfterDays-problem""#) && refused.body.string.contains("from 1 to 3650"))
            #expect(try await Study.query(on: app.db).filter(\.$slug == "ending").first() == nil)

            let saved = try await client.post("/studies", valid + [("endsOn", "2027-06-30"), ("endsAfterDays", "14")])
            #expect(saved.status == .seeOther)
            let study = try #require(try await Study.query(on: app.db).filter(\.$slug == "ending").first())
            #expect(study.endsOn == "2027-06-30" && study.endsAfterDays == 14)
            let page = try await client.get("/studies/ending/settings").body.string
            #expect(page.contains(#"value="2027-06-30""#) && page.contains(#"value="14""#))
        }
    }

    @Test("the study end travels in study documents, checked by the same rule")
    func studyEndInDocuments() async throws {
        try await withTestApp { app, _ in
            let study = try await StudyTransfer.create(
                slug: "ends", name: "Ends", invitationOnly: false, deviceScheduled: false, on: app.db, now: Date())
            study.endsOn = "2027-06-30"
            study.endsAfterDays = 21
            try await study.save(on: app.db)
            let text = try JSONEncoder().encode(try await StudyTransfer.export(study, on: app.db))
            #expect(String(decoding: text, as: UTF8.self).contains(#""ends_on":"2027-06-30""#))
            var document = try JSONDecoder().decode(StudyDocument.self, from: text)
            let copy = try await StudyTransfer.importStudy(document, slug: "ends-copy", on: app.db, now: Date())
            #expect(copy.endsOn == "2027-06-30" && copy.endsAfterDays == 21)
            document.endsAfterDays = 0
            #expect(document.problems().contains { $0.contains("from 1 to 3650") })
        }
    }

    @Test("what participants get back is switched per study; the feedback question must be one of the survey’s sliders or scores")
    func participantFeedbackSettings() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/new")
            let valid = StudyFormFields.valid(slug: "giving", name: "Giving back")
            #expect(try await client.post("/studies", valid + [("feedbackEnabled", "on"), ("dataDownloadEnabled", "on")]).status == .seeOther)
            let study = try #require(try await Study.query(on: app.db).filter(\.$slug == "giving").first())
            #expect(study.feedbackEnabled && study.dataDownloadEnabled && !study.publicStatisticsEnabled)
            try await SurveyStore.create(
                studyID: try study.requireID(), kind: .esm, name: "ESM", position: 0,
                document: try SurveyStore.text(of: SampleSurveys.experienceSampling), on: app.db, now: Date())

            let form = try await client.get("/studies/giving/settings").body.string
            #expect(form.contains(#"<option value="awake" >Do you feel awake? (awake)</option>"#))
            let refused = try await client.post("/studies/giving/settings", valid + [("feedbackQuestionID", "where")])
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains(#"id="feedbackQuestionID-problem""#) && refused.body.string.contains("choose one of happy, relaxed, awake"))

            let saved = try await client.post("/studies/giving/settings", valid + [
                ("feedbackEnabled", "on"), ("publicStatisticsEnabled", "on"), ("feedbackQuestionID", "awake"),
            ])
            #expect(saved.status == .seeOther)
            let updated = try #require(try await Study.find(study.id, on: app.db))
            #expect(updated.randomSampling, "still ticked")
            #expect(updated.feedbackEnabled && !updated.dataDownloadEnabled && updated.publicStatisticsEnabled)
            #expect(updated.feedbackQuestionID == "awake")

            var document = try await StudyTransfer.export(updated, on: app.db)
            #expect(document.feedbackQuestion == "awake" && document.publicStatisticsEnabled == true)
            let copy = try await StudyTransfer.importStudy(document, slug: "giving-copy", on: app.db, now: Date())
            #expect(copy.feedbackQuestionID == "awake" && !copy.dataDownloadEnabled && copy.publicStatisticsEnabled)
            document.feedbackQuestion = "where"
            #expect(document.problems().contains { $0.contains("is not a slider or a score") }, "import applies the same rule")
        }
    }

    @Test("random sampling is switched on the settings page; unticked, only fixed times beep")
    func randomSampling() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let new = try await client.get("/studies/new").body.string
            #expect(new.contains(#"<input type="checkbox" name="randomSampling" checked>"#), "on for a new study, as Mappiness")
            let valid = StudyFormFields.valid(slug: "fixed-only", name: "Fixed only").filter { $0.0 != "randomSampling" }
            #expect(try await client.post("/studies", valid).status == .seeOther)
            let study = try #require(try await Study.query(on: app.db).filter(\.$slug == "fixed-only").first())
            #expect(!study.randomSampling)
            let page = try await client.get("/studies/fixed-only/settings").body.string
            #expect(page.contains(#"<input type="checkbox" name="randomSampling" >"#))
        }
    }

    @Test("changing the study's rules replans the beeps already planned for its participants")
    func rulesChangeReplans() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            try await BeepPlanner.planNewParticipant(world.participantA, on: app.db, now: Date())
            func pendingRandom() async throws -> Int {
                try await Beep.query(on: app.db).filter(\.$participant.$id == world.participantA)
                    .filter(\.$status == .pending).filter(\.$origin == .random).count()
            }
            #expect(try await pendingRandom() > 0, "random beeps are planned at first")
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/study-a/settings")
            let fixedOnly = StudyFormFields.valid(slug: "study-a", name: "Study A").filter { $0.0 != "randomSampling" }
            let saved = try await client.post("/studies/study-a/settings", fixedOnly)
            #expect(saved.headers.first(name: .location) == "/studies/study-a/settings?saved=1&replanned=1")
            #expect(try await pendingRandom() == 0, "no random beep is left once random sampling is off")
            let page = try await client.get("/studies/study-a/settings?saved=1&replanned=1").body.string
            #expect(page.contains("The planned beeps of 1 participant now follow the new rules."))
            let unchanged = try await client.post("/studies/study-a/settings", fixedOnly)
            #expect(unchanged.headers.first(name: .location) == "/studies/study-a/settings?saved=1", "nothing to replan")
        }
    }
}

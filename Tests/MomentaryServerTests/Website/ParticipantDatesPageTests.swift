import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

@Suite("Website participant dates", .serialized)
struct ParticipantDatesPageTests {
    @Test("names are set for the study, a schedule counts from one, a participant's date plans the beep, changing it replans")
    func datesDriveFixedBeeps() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let names = "/studies/study-a/participant-dates"
            let schedule = "/studies/study-a/surveys/\(world.surveyA)/schedule"
            let rule = #"{"rules": [{"relative": {"to": "Surgery", "day": 1, "time": "10:00"}}]}"#
            #expect(try await client.get(names).status == .ok)  // a page with a form gives the CSRF token

            // A schedule may only count from a date the study names.
            let unnamed = try await client.post(schedule, [("document", rule)])
            #expect(unnamed.status == .unprocessableEntity)
            #expect(unnamed.body.string.contains("“Surgery”, which is not one of them"))

            let twice = try await client.post(names, [("names", "Baseline\nbaseline")])
            #expect(twice.status == .unprocessableEntity)
            #expect(twice.body.string.contains("named twice"))
            #expect(try await client.post(names, [("names", " Baseline \n\nSurgery\n")]).status == .seeOther)
            let study = try #require(try await Study.find(world.studyA.id, on: app.db))
            #expect(study.participantDateNames == ["Baseline", "Surgery"])
            #expect(try await client.post(schedule, [("document", rule)]).status == .seeOther)

            // A name a schedule counts from cannot be removed.
            let removing = try await client.post(names, [("names", "Baseline")])
            #expect(removing.status == .unprocessableEntity)
            #expect(removing.body.string.contains("“Surgery” cannot be removed"))

            // Without the date, nothing fixed is planned for the participant.
            try await BeepPlanner.planNewParticipant(world.participantA, on: app.db, now: Date())
            let fixed = { try await Beep.query(on: app.db).filter(\.$participant.$id == world.participantA)
                .filter(\.$status == .pending).filter(\.$origin == .fixed).all() }
            #expect(try await fixed().isEmpty)

            let datesPath = "/studies/study-a/participants/\(world.participantA)/dates"
            let page = try await client.get(datesPath)
            #expect(page.status == .ok)
            #expect(page.body.string.contains(#"<label for="date1">Surgery</label>"#))
            let bad = try await client.post(datesPath, [("date0", ""), ("date1", "tomorrow")])
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.body.string.contains("not a date in YYYY-MM-DD form"))

            // Surgery yesterday (in the participant's zone): day 1 is today, at 10:00 if that is still to come, else nothing today.
            let participant = try #require(try await Participant.find(world.participantA, on: app.db))
            let zone = ParticipantTimeZone.resolve(participant.timeZone, studyDefault: study.defaultTimeZone)
            let today = WallClock.localDate(of: Date(), in: zone)
            let tomorrowSurgery = today.adding(days: 0)
            #expect(try await client.post(datesPath, [("date0", "2025-01-02"), ("date1", tomorrowSurgery.description)]).status == .seeOther)
            let stored = try #require(try await Participant.find(world.participantA, on: app.db))
            #expect(stored.namedDates == ["Baseline": LocalDate("2025-01-02")!, "Surgery": tomorrowSurgery])
            // Day 1 after surgery is tomorrow, which the planner plans a day ahead.
            let planned = try await fixed()
            #expect(planned.count == 1)
            #expect(planned.first.map { TimestampText.local($0.scheduledAt, in: zone).contains("\(today.adding(days: 1))T10:00") } == true)

            // Clearing the date cancels the beep at once.
            #expect(try await client.post(datesPath, [("date0", "2025-01-02"), ("date1", "")]).status == .seeOther)
            #expect(try await fixed().isEmpty)
            let shown = try await client.get("/studies/study-a/participants").body.string
            #expect(shown.contains(#"/studies/study-a/participants/\#(world.participantA)/dates"#))
        }
    }

    @Test("an observer sees the dates but may not change them or the names")
    func permissions() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            world.studyA.participantDateNames = ["Baseline"]
            try await world.studyA.save(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.observer)
            let datesPath = "/studies/study-a/participants/\(world.participantA)/dates"
            let page = try await client.get(datesPath)
            #expect(page.status == .ok)
            #expect(page.body.string.contains("Baseline: not set"))
            #expect(try await client.post(datesPath, [("date0", "2025-01-02")]).status == .forbidden)
            #expect(try await client.post("/studies/study-a/participant-dates", [("names", "X")]).status == .forbidden)
            #expect(try await Participant.find(world.participantA, on: app.db)?.dates == nil)
            // Another study's participant is not reachable through this study.
            #expect(try await client.get("/studies/study-a/participants/\(world.participantB)/dates").status == .notFound)
        }
    }

    @Test("a study document carries its date names; a schedule counting from an unnamed date is refused on import")
    func studyDocument() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            world.studyA.participantDateNames = ["Baseline", "Surgery"]
            try await world.studyA.save(on: app.db)
            try await Schedule(studyID: world.studyA.requireID(), surveyID: world.surveyA,
                               document: #"{"rules": [{"relative": {"to": "Surgery", "day": -1, "time": "09:00"}}]}"#, updatedAt: Date()).save(on: app.db)
            var document = try await StudyTransfer.export(world.studyA, on: app.db)
            #expect(document.interventions == ["Baseline", "Surgery"])
            let copy = try await StudyTransfer.importStudy(document, slug: "copy-a", on: app.db, now: Date())
            #expect(copy.participantDateNames == ["Baseline", "Surgery"])
            document.interventions = ["Baseline"]
            #expect(document.problems().contains { $0.contains("the date “Surgery”, which is not one of them") })
        }
    }
}

@Suite("Participant dates from a file")
struct ParticipantDatesImportTests {
    @Test("import participant-dates sets dates by label, refuses a bad file whole with each line's problem, and replans")
    func importFile() async throws {
        let data = TestScratch.file("momentary-dates")
        defer { try? FileManager.default.removeItem(at: data) }
        let configuration = try Configuration.load(environment: [:], dataDirectoryOverride: data.path)
        let (first, second) = try await AppFactory.withApp(configuration) { app in
            try await app.migrateAtomically()
            let fixture = try await SignallingFixture.make(on: app.db, now: Date())
            fixture.study.participantDateNames = ["Baseline", "Surgery"]
            try await fixture.study.save(on: app.db)
            return (try await fixture.participant(on: app.db, now: Date()), try await fixture.participant(on: app.db, now: Date()))
        }
        let slug = try await AppFactory.withApp(configuration) { app in try await Study.query(on: app.db).first()!.slug }
        let file = data.appendingPathComponent("dates.csv")

        try Data("participant,name,date\n\(first.id!.uuidString),Surgery,2026-13-01\nNOONE,Baseline,2026-01-01\n\(second.id!.uuidString.lowercased()),Discharge,2026-01-01\n".utf8).write(to: file)
        let refused = await runCommand(["import", "participant-dates", "--study", slug, file.path, "--data", data.path])
        #expect(refused.code != 0)
        #expect(refused.errors.contains("line 2: The date for “Surgery”, “2026-13-01”, is not a date in YYYY-MM-DD form."), "\(refused.errors)")
        #expect(refused.errors.contains("line 3: No participant has the label NOONE."))
        #expect(refused.errors.contains("line 4: “Discharge” is not one of the study's participant dates"))

        try Data("participant,name,date\n\(first.id!.uuidString),Surgery,2026-03-08\n\(first.id!.uuidString),Baseline,\"2026-01-02\"\n\(second.id!.uuidString.lowercased()),Baseline,2026-02-01\n".utf8).write(to: file)
        let done = await runCommand(["import", "participant-dates", "--study", slug, file.path, "--data", data.path])
        #expect(done.code == 0, "\(done.errors)")
        #expect(done.output.contains("Set 3 date(s) of 2 participant(s)"))
        try await AppFactory.withApp(configuration) { app in
            let firstDates = try await Participant.find(first.id, on: app.db)?.namedDates
            let secondDates = try await Participant.find(second.id, on: app.db)?.namedDates
            #expect(firstDates == ["Surgery": LocalDate("2026-03-08")!, "Baseline": LocalDate("2026-01-02")!])
            #expect(secondDates == ["Baseline": LocalDate("2026-02-01")!])
        }
    }
}

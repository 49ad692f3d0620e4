import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

/// `momentary studies import --beiwe` on the fixtures of `Fixtures/Beiwe` (see FORMATS.md).
@Suite("Beiwe study import", .serialized)
struct BeiweStudyImportTests {
    static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Beiwe").appendingPathComponent(name)
    }

    func withImported(
        _ name: String, slug: String = "post-op", _ body: (String, Configuration) async throws -> Void
    ) async throws {
        let data = TestScratch.file("momentary-beiwe")
        defer { try? FileManager.default.removeItem(at: data) }
        let result = await runCommand(["studies", "import", "--beiwe", Self.fixture(name).path, "--slug", slug, "--data", data.path])
        #expect(result.code == 0, "\(result.errors)")
        try await body(result.output, try Configuration.load(environment: [:], dataDirectoryOverride: data.path))
    }

    @Test("the whole export: tracking and audio surveys, the mistakes Beiwe accepted as warnings, the rest listed")
    func wholeStudy() async throws {
        try await withImported("study-export.json") { output, configuration in
            #expect(output.contains("Imported the Beiwe study as “post-op” with 7 survey(s) (1 switched off) and 16 fixed rule(s)."))
            #expect(output.contains("Participant dates: Baseline, Surgery, Discharge."))
            #expect(output.contains("Expected streams: gps, accelerometer, gyro, devicemotion, power_state, reachability."))
            #expect(output.contains("Survey 9 (“Placeholder”) is a survey of type “dummy”"))
            #expect(output.contains("Survey 8 (without a name) has no questions (a draft); left out."))
            #expect(output.contains("Survey 7 (“Sleep (copy)”): Question 2"))
            #expect(output.contains("has no options"))
            #expect(!output.contains("Momentary records no"), "calls, texts, wifi, bluetooth and omniring are switched off, so not named")
            #expect(output.contains("(2 of them)"))
            try await AppFactory.withApp(configuration) { app in
                let study = try #require(try await Study.query(on: app.db).filter(\.$slug == "post-op").first())
                #expect(study.participantDateNames == ["Baseline", "Surgery", "Discharge"])
                #expect(study.expectedStreams.map(\.rawValue) == ["gps", "accelerometer", "gyro", "devicemotion", "power_state", "reachability"])
                #expect(study.randomSampling == false)
                #expect(study.defaultTimeZone == "America/New_York")
                #expect(study.consentText == "I have read and understood the information about the study.")
                let surveys = try await Survey.query(on: app.db).filter(\.$study.$id == study.requireID()).sort(\.$position).all()
                #expect(surveys.map(\.name) == ["Symptom diary", "Daily check-in", "Well-being item bank", "Post-operative follow-up",
                                                "Evening voice diary", "Reading task", "Sleep (copy)"])
                #expect(surveys.map(\.active) == [true, true, true, true, true, true, false])
                let voice = try SurveyCatalog.document(of: try await SurveyCatalog.currentVersion(of: surveys[4], on: app.db))
                #expect(voice.surveyType == .audioSurvey)
                #expect(voice.content.map(\.kind) == [.audioRecording(maxDurationSeconds: 180)])
                #expect(voice.content.first?.text.text == "Please describe, in your own words, how your day has been so far.")
            }
        }
    }

    @Test("each tracking survey's document is Beiwe's survey as it was, less the name and schedules Momentary keeps beside it")
    func documentsRoundTrip() async throws {
        let export = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: Self.fixture("study-export.json")))
        let beiweSurveys = try #require(export.objectValue?["surveys"]?.arrayValue).compactMap(\.objectValue)
        try await withImported("study-export.json") { _, configuration in
            try await AppFactory.withApp(configuration) { app in
                let study = try #require(try await Study.query(on: app.db).filter(\.$slug == "post-op").first())
                let document = try await StudyTransfer.export(study, on: app.db)
                let encoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(document))
                let entries = try #require(encoded.objectValue?["surveys"]?.arrayValue).compactMap(\.objectValue)
                var compared = 0
                for survey in beiweSurveys where survey["survey_type"] == .string("tracking_survey") {
                    guard let entry = entries.first(where: { $0["name"] == survey["name"] }) else { continue }
                    let expected = survey.filter { !["name", "timings", "absolute_timings", "relative_timings"].contains($0.key) }
                    #expect(entry["document"] == .object(expected), "\(survey["name"] ?? .null)")
                    compared += 1
                }
                #expect(compared == 5)
            }
        }
    }

    @Test("schedules: weekly Sunday first, absolute across the DST gap and overlap, relative to participant dates")
    func schedules() async throws {
        try await withImported("study-export.json") { _, configuration in
            try await AppFactory.withApp(configuration) { app in
                let study = try #require(try await Study.query(on: app.db).filter(\.$slug == "post-op").first())
                let signalling = try #require(try await StudySignalling.load([study.requireID()], on: app.db)[study.requireID()])
                let surveys = try await Survey.query(on: app.db).filter(\.$study.$id == study.requireID()).all()
                func rules(_ name: String) throws -> FixedScheduleDocument {
                    let id = try #require(surveys.first { $0.name == name }?.id)
                    return try #require(signalling.fixedRules.first { $0.surveyID == id }?.document)
                }
                let newYork = TimeZone(identifier: "America/New_York")!
                func local(_ name: String, from: String, through: String, dates: [String: LocalDate] = [:]) throws -> [String] {
                    FixedSchedule.beeps(try rules(name), registeredOn: LocalDate("2025-01-01")!, dates: dates, timeZone: newYork,
                                        from: LocalDate(from)!, through: LocalDate(through)!).map { TimestampText.local($0, in: newYork) }
                }
                // Beiwe's list starts on Sunday: [[], [09:00, 19:00], [09:00], …, [10:00]] is Monday twice, …, Saturday at ten.
                #expect(try local("Daily check-in", from: "2025-06-01", through: "2025-06-07") == [
                    "2025-06-02T09:00:00-04:00", "2025-06-02T19:00:00-04:00", "2025-06-03T09:00:00-04:00", "2025-06-04T09:00:00-04:00",
                    "2025-06-05T09:00:00-04:00", "2025-06-06T09:00:00-04:00", "2025-06-06T19:00:00-04:00", "2025-06-07T10:00:00-04:00",
                ])
                // 02:30 on 9 March 2025 does not exist in New York (beeps at 03:00); 01:30 on 2 November happens twice (the first).
                let bank = try local("Well-being item bank", from: "2025-03-08", through: "2025-11-02")
                #expect(bank.contains("2025-03-09T03:00:00-04:00"))
                #expect(bank.contains("2025-06-14T17:00:00-04:00"))
                #expect(bank.contains("2025-11-02T01:30:00-04:00"))
                #expect(bank.contains("2025-03-16T12:00:00-04:00"), "Sundays at noon")
                // Relative timings count from the participant's dates; without them, nothing.
                #expect(try local("Post-operative follow-up", from: "2025-01-01", through: "2025-12-31").isEmpty)
                let dates = ["Surgery": LocalDate("2025-03-08")!, "Baseline": LocalDate("2025-02-01")!]
                #expect(try local("Post-operative follow-up", from: "2025-01-01", through: "2025-12-31", dates: dates) == [
                    "2025-02-01T17:00:00-05:00", "2025-03-01T17:00:00-05:00",
                    "2025-03-07T18:00:00-05:00", "2025-03-09T09:00:00-04:00", "2025-03-15T09:00:00-04:00",
                ])
            }
        }
    }

    @Test("an older export: interventions by integer key become named dates, a consent given as a string is listed")
    func legacyExport() async throws {
        try await withImported("study-export-legacy.json", slug: "legacy") { output, configuration in
            #expect(output.contains("Participant dates: Intervention 41, Intervention 57."))
            try await AppFactory.withApp(configuration) { app in
                let study = try #require(try await Study.query(on: app.db).filter(\.$slug == "legacy").first())
                #expect(study.participantDateNames == ["Intervention 41", "Intervention 57"])
            }
        }
    }

    @Test("a file that is not a Beiwe export is refused and stores nothing; Beiwe's schedule inside a Momentary document is refused")
    func refusals() async throws {
        let data = try TestScratch.folder("momentary-beiwe")
        defer { try? FileManager.default.removeItem(at: data) }
        let notExport = data.appendingPathComponent("x.json")
        try Data(#"{"surveys": "none"}"#.utf8).write(to: notExport)
        let refused = await runCommand(["studies", "import", "--beiwe", notExport.path, "--data", data.path])
        #expect(refused.code != 0)
        #expect(refused.errors.contains("has no “surveys” list"))

        try await withTestApp { app, _ in
            let study = try await StudyTransfer.create(slug: "plain", name: "Plain", invitationOnly: false, deviceScheduled: false, on: app.db, now: Date())
            var document = try await StudyTransfer.export(study, on: app.db)
            let survey = try SurveyDocument(jsonData: Data(#"""
                {"content": [{"question_id": "mood", "question_type": "slider", "question_text": "Mood?", "min": 1, "max": 5}],
                 "timings": [[], [32400], [], [], [], [], []], "absolute_timings": [[2025, 3, 9, 9000]]}
                """#.utf8))
            document.surveys = [.init(name: "Mood", kind: .esm, position: 0, active: true, document: survey, schedule: nil)]
            let problems = document.problems()
            #expect(problems.contains { $0.contains("“absolute_timings” is Beiwe's schedule") })
            #expect(problems.contains { $0.contains("“timings” are only followed in device-scheduled studies") })
            document.scheduling = .device
            #expect(!document.problems().contains { $0.contains("“timings”") })
        }
    }

    @Test("names: too long ones are shortened, repeated ones numbered, a missing one made; a stream Momentary lacks is named")
    func namesAndStreams() throws {
        let long = String(repeating: "Very long survey name ", count: 8)
        let question = #"{"question_id": "q", "question_type": "slider", "question_text": "Mood?", "min": 1, "max": 5}"#
        let json = """
            {"surveys": [
              {"content": [\(question)], "survey_type": "tracking_survey", "settings": {}, "name": "\(long)"},
              {"content": [\(question)], "survey_type": "tracking_survey", "settings": {}, "name": "Mood"},
              {"content": [\(question)], "survey_type": "tracking_survey", "settings": {}, "name": "mood"},
              {"content": [\(question)], "survey_type": "tracking_survey", "settings": {}}],
             "device_settings": {"wifi": true, "gps": false, "accelerometer": true}}
            """
        let conversion = try BeiweStudyConversion(data: Data(json.utf8), slug: "names", name: "Names")
        let names = conversion.document.surveys.map(\.name)
        #expect(names[0].count <= SurveySetRules.nameLength.upperBound - 5)
        #expect(Array(names.dropFirst()) == ["Mood", "mood (2)", "Survey 4"])
        #expect(SurveySetRules.problems(conversion.document.surveys.map { ($0.name, $0.kind) }).isEmpty)
        #expect(conversion.warnings.contains { $0.contains("was shortened to") })
        #expect(conversion.warnings.contains("Momentary records no wifi data; those streams were not carried over."))
        #expect(conversion.document.expectedStreams == ["accelerometer"])
        #expect(conversion.document.problems(checkingSurveys: false).isEmpty)
    }
}

import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

/// The wide table is one survey's: registration answers and each beep survey have their own
/// questions, and a column exists only for a question some exported response could have answered.
@Suite("Exports: a wide table per survey")
struct ExportWideSurveyTests {
    @Test("columns are the questions of the versions answered, in the current order; registration rows are apart; --survey picks the survey")
    func widePerSurvey() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let studyID = try fixture.study.requireID()
            let alice = try await fixture.participant(label: "ALICE", on: app.db)
            let first = try await fixture.response(from: alice, submittedAt: ExportFixture.march(2, 9), on: app.db)

            // Version 2 drops the note and puts a new energy question first; version 3 adds a
            // question nobody has answered yet.
            var second = ExportFixture.document
            second.content.removeAll { $0.id == "note" }
            second.content.insert(SurveyQuestion(id: "energy", text: "Energy?", kind: .slider(SliderScale(min: 0, max: 10, step: 1))), at: 0)
            try await SurveyStore.saveVersion(of: fixture.survey, document: try SurveyStore.text(of: second), authorID: nil, on: app.db, now: Date())
            var third = second
            third.content.append(SurveyQuestion(id: "late", text: "Added later?", kind: .yesNo))
            try await SurveyStore.saveVersion(of: fixture.survey, document: try SurveyStore.text(of: third), authorID: nil, on: app.db, now: Date())
            let later = try await ResponseRows.record(
                draft(alice, studyID, fixture.survey, version: 2, at: ExportFixture.march(3, 9)),
                answers: [ValidatedAnswer(questionID: "energy", questionType: .slider, status: .answered(.number(7)))]
                    + ExportFixture.answers(note: nil).filter { $0.questionID != "note" },
                context: nil, on: app.db)

            let intake = try await SurveyStore.create(
                studyID: studyID, kind: .registration, name: "Intake", position: 1,
                document: try SurveyStore.text(of: SurveyDocument(content: [
                    SurveyQuestion(id: "age_band", text: "Your age?", kind: .radioButton([ChoiceOption("18 to 24", value: "18_24")])),
                ])), on: app.db, now: Date())
            let registration = try await ResponseRows.record(
                draft(alice, studyID, intake, version: 1, at: ExportFixture.march(1, 8), kind: .registration),
                answers: [ValidatedAnswer(questionID: "age_band", questionType: .radioButton, status: .answered(.string("18_24")))],
                context: nil, on: app.db)

            let daily = try CSVReader.rows(try await exportText(.wide, study: "city-moods", on: app.db))
            #expect(Array(daily.header.dropFirst(ResponseColumns.header.count)) == [
                "energy", "energy_status", "mood", "mood_status", "with_whom_alone", "with_whom_partner", "with_whom_friends",
                "with_whom_status", "outside", "outside_status", "where", "where_status", "note", "note_status",
            ], "the current order first, then the note of version 1; no column for a question nobody could answer")
            #expect(daily.rows.map { $0["response_id"] } == [first.id, later.id].map { $0?.uuidString.lowercased() })
            #expect(daily.rows[0]["energy_status"] == "" && daily.rows[1]["energy"] == "7" && daily.rows[1]["note_status"] == "")

            let byName = try CSVReader.rows(try await exportText(.wide, study: "city-moods", survey: "Intake", on: app.db))
            #expect(Array(byName.header.dropFirst(ResponseColumns.header.count)) == ["age_band", "age_band_status"])
            #expect(byName.rows.map { $0["response_id"] } == [registration.id?.uuidString.lowercased()])
            let byID = try await exportText(.wide, study: "city-moods", survey: try intake.requireID().uuidString, on: app.db)
            #expect(try CSVReader.rows(byID).rows.count == 1)
            let long = try CSVReader.rows(try await exportText(.long, study: "city-moods", survey: "Intake", on: app.db))
            #expect(Set(long.rows.map { $0["question_id"] }) == ["age_band"], "the survey filters the other formats too")

            let export = try await StudyExport.prepare(ExportRequest(study: "city-moods", format: .wide, survey: "Intake"), on: app.db)
            #expect(export.fileName == "city-moods-responses-wide-intake.csv")
            await #expect(throws: ExportRequestError.self) {
                try await StudyExport.prepare(ExportRequest(study: "city-moods", format: .wide, survey: "Nope"), on: app.db)
            }
            await #expect(throws: ExportRequestError.self) {
                try await StudyExport.prepare(ExportRequest(study: "city-moods", format: .archive, survey: "Daily"), on: app.db)
            }

            let workbook = try XLSXInspection(data: try await exportBytes(.xlsx, study: "city-moods", on: app.db).data)
            #expect(workbook.sheetNames == ["Responses", "Wide Daily", "Wide Intake", "Context", "Environment", "Beeps", "Codebook"])
            #expect(try workbook.rows(of: "Wide Intake").first?.suffix(2) == ["age_band", "age_band_status"])
            #expect(try workbook.rows(of: "Wide Daily").count == 3, "the header and two responses")

            // A second beep survey: the wide table then needs to be told which.
            _ = try await SurveyStore.create(
                studyID: studyID, kind: .esm, name: "Evening", position: 2,
                document: try SurveyStore.text(of: ExportFixture.document), on: app.db, now: Date())
            do {
                _ = try await StudyExport.prepare(ExportRequest(study: "city-moods", format: .wide), on: app.db)
                Issue.record("a wide table of two beep surveys was not refused")
            } catch let error as ExportRequestError {
                #expect(error.message.contains("--survey") && error.message.contains("“Evening”"))
            }
        }
    }

    private func draft(
        _ participant: UUID, _ study: UUID, _ survey: Survey, version: Int, at time: Date, kind: Survey.Kind = .esm
    ) throws -> ResponseRows.Draft {
        ResponseRows.Draft(
            participantID: participant, studyID: study, surveyID: try survey.requireID(), surveyVersion: version,
            kind: kind, beepID: nil, volunteered: true, idempotencyKey: UUID().uuidString,
            startedAt: time.addingTimeInterval(-20), submittedAt: time, receivedAt: time, delaySeconds: nil,
            timeZone: "Europe/London", language: "en")
    }
}

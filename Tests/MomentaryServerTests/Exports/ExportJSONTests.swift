import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Exports: JSON, isolation and requests")
struct ExportJSONTests {
    @Test("the JSON export is an array of responses with answers and context, matching what was stored")
    func jsonExport() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            let answered = try await fixture.response(
                from: alice, submittedAt: ExportFixture.march(5, 12), beepSentBefore: 30, note: "Line one\nline \"two\"", on: app.db)
            try await ExportFixture.attachEnvironment(
                to: answered, weather: #"{"temperature_c":18.5}"#, airQuality: #"{"aqi":22}"#, pollen: nil, on: app.db)
            try await fixture.response(from: alice, submittedAt: ExportFixture.march(5, 13), note: nil, context: nil, on: app.db)

            let data = try await exportBytes(.json, study: "city-moods", on: app.db).data
            let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            #expect(objects.count == 2)
            let first = objects[0]
            #expect(first["response_id"] as? String == answered.id?.uuidString.lowercased())
            #expect(first["participant_id"] as? String == alice.uuidString.lowercased())
            #expect(first["study"] as? String == "city-moods")
            #expect(first["survey"] as? String == "Daily")
            #expect(first["survey_version"] as? Int == 1)
            #expect(first["volunteered"] as? Bool == false)
            #expect(first["delay_seconds"] as? Double == 30)
            #expect(first["submitted_at"] as? String == "2026-03-05T12:00:00.000Z")
            let answers = try #require(first["answers"] as? [[String: Any]])
            #expect(answers.map { $0["question_id"] as? String } == ExportFixture.document.content.map(\.id))
            let values = Dictionary(uniqueKeysWithValues: answers.map { ($0["question_id"] as! String, $0) })
            #expect(values["mood"]?["value"] as? Double == 72.5)
            #expect(values["with_whom"]?["value"] as? [String] == ["partner", "friends"])
            #expect(values["outside"]?["value"] as? Bool == true)
            #expect((values["where"]?["value"] as? [String: Any])?["place"] as? String == "Office")
            #expect(values["note"]?["value"] as? String == "Line one\nline \"two\"")
            #expect(values["intro"]?["status"] as? String == "NOT_PRESENTED")
            #expect(values["intro"]?["value"] is NSNull)
            #expect(values["mood"]?["question_text"] as? String == "How do you feel, from 0 to 100?")
            let context = try #require(first["context"] as? [String: Any])
            #expect(context["latitude"] as? Double == 51.5)
            #expect(context["connection"] as? String == "wifi")
            #expect((context["weather"] as? [String: Any])?["temperature_c"] as? Double == 18.5)
            #expect((context["air_quality"] as? [String: Any])?["aqi"] as? Int == 22)
            #expect(context["pollen"] is NSNull)
            let environment = try #require(first["environment"] as? [String: Any], "the environment as an object of its own")
            #expect(Set(environment.keys) == ["weather", "air_quality"], "only the sources present")
            #expect((environment["weather"] as? [String: Any])?["temperature_c"] as? Double == 18.5)

            let second = objects[1]
            #expect(second["volunteered"] as? Bool == true)
            #expect(second["beep_id"] is NSNull && second["scheduled_at"] is NSNull)
            #expect(second["context"] is NSNull)
            #expect(second["environment"] is NSNull)
        }
    }

    @Test("a study without responses exports a header-only CSV, an empty JSON array and a workbook of empty sheets")
    func emptyStudy() async throws {
        try await withTestApp { app, _ in
            _ = try await ExportFixture.make(on: app.db)
            let csv = try CSVReader.records(try await exportText(.csv, study: "city-moods", on: app.db))
            #expect(csv == [AnswerTable.header])
            let context = try CSVReader.records(try await exportText(.contextCSV, study: "city-moods", on: app.db))
            #expect(context == [ContextTable.header])
            let json = try await exportBytes(.json, study: "city-moods", on: app.db).data
            #expect((try JSONSerialization.jsonObject(with: json) as? [Any])?.isEmpty == true)
            let workbook = try XLSXInspection(data: try await exportBytes(.xlsx, study: "city-moods", on: app.db).data)
            #expect(workbook.sheetNames == ["Responses", "Context", "Environment", "Beeps", "Codebook"], "no survey has responses, so no wide sheet")
            for name in workbook.sheetNames where name != "Codebook" {
                #expect(try workbook.rows(of: name).count == 1, "\(name) has its header row only")
            }
            #expect(try workbook.rows(of: "Environment").first == EnvironmentTable.fixedHeader)
        }
    }

    @Test("an export never includes another study's responses, in any format")
    func otherStudiesStayOut() async throws {
        try await withTestApp { app, _ in
            let mine = try await ExportFixture.make(slug: "mine", on: app.db)
            let theirs = try await ExportFixture.make(slug: "theirs", on: app.db)
            let me = try await mine.participant(on: app.db)
            let them = try await theirs.participant(on: app.db)
            // Answering beeps, so that the beeps table names the responses too.
            let kept = try await mine.response(from: me, submittedAt: ExportFixture.march(6, 9), beepSentBefore: 60, on: app.db).requireID()
            let foreign = try await theirs.response(from: them, submittedAt: ExportFixture.march(6, 9), beepSentBefore: 60, on: app.db).requireID()
            // A message to each, so that the messages table has rows of both studies to keep apart.
            for (fixture, participant) in [(mine, me), (theirs, them)] {
                _ = try await MessageService.send("How are things?", to: .participant(id: participant), in: fixture.study, by: "dev@example.org",
                                                  now: ExportFixture.march(6, 10), on: app.db)
            }
            for format in ExportFormat.allCases {
                let data = try await exportBytes(format, study: "mine", on: app.db).data
                let text = switch format {
                case .xlsx: try XLSXInspection(data: data).allSheetXML
                case .archive, .kmz: try XLSXInspection(data: data).parts.filter { !$0.key.hasSuffix(".xlsx") && !$0.key.hasSuffix(".kmz") }
                    .map { String(decoding: $0.value, as: UTF8.self) }.joined()
                default: String(decoding: data, as: UTF8.self)
                }
                // The codebook describes the surveys, and the messages table the messages, not responses.
                #expect(format == .codebook || format == .messages || text.contains(kept.uuidString.lowercased()), "\(format)")
                #expect(format != .messages || text.contains(me.uuidString.lowercased()), "\(format)")
                #expect(!text.contains(foreign.uuidString.lowercased()), "\(format)")
                #expect(!text.contains(them.uuidString.lowercased()), "\(format)")
            }
        }
    }

    @Test("bad filters and strangers are refused with a message naming the problem")
    func refusedRequests() async throws {
        #expect(throws: ExportRequestError.self) { try ExportFilter.parse(from: "2026-02-30", to: nil, participants: []) }
        #expect(throws: ExportRequestError.self) { try ExportFilter.parse(from: "03/01/2026", to: nil, participants: []) }
        #expect(throws: ExportRequestError.self) { try ExportFilter.parse(from: "2026-03-02", to: "2026-03-01", participants: []) }
        #expect(throws: ExportRequestError.self) { try ExportFilter.parse(from: nil, to: nil, participants: ["P-17"]) }
        do {
            _ = try ExportFilter.parse(from: "2026-03-02", to: "2026-03-01", participants: [])
        } catch {
            #expect(error.message.contains("2026-03-01") && error.message.contains("before"))
        }

        try await withTestApp { app, _ in
            let mine = try await ExportFixture.make(slug: "mine", on: app.db)
            let theirs = try await ExportFixture.make(slug: "theirs", on: app.db)
            _ = try await mine.participant(on: app.db)
            let stranger = try await theirs.participant(on: app.db)
            let filter = ExportFilter(participantIDs: [stranger])
            await #expect {
                _ = try await StudyExport.prepare(ExportRequest(study: "mine", format: .csv, filter: filter), on: app.db)
            } throws: { error in
                (error as? ExportRequestError)?.message.contains(stranger.uuidString.lowercased()) == true
            }
            await #expect {
                _ = try await StudyExport.prepare(ExportRequest(study: "nobody", format: .csv), on: app.db)
            } throws: { error in
                (error as? ExportRequestError)?.message.contains("nobody") == true
            }
        }
    }

    @Test("export timestamps have one format, always with milliseconds, and name the instant the participant API names")
    func timestamps() throws {
        var generator = Xoshiro256StarStar(seed: 42)
        let format = try Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#)
        for _ in 0..<500 {
            let seconds = Double(Int.random(in: 0..<4_000_000_000, using: &generator))
            let fraction = [0, 0.5, 0.123, 0.999_6, 0.000_4][Int.random(in: 0..<5, using: &generator)]
            let date = Date(timeIntervalSince1970: seconds + fraction)
            let text = ExportTimestamp.text(date)
            #expect(text.wholeMatch(of: format) != nil, "\(text)")
            #expect(WireCoding.date(from: text) == WireCoding.date(from: WireCoding.string(from: date)), "\(text)")
            #expect(ExportTimestamp.localText(date) == String(text.dropLast()))
        }
    }
}

import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Exports: CSV")
struct ExportCSVTests {
    @Test("the long CSV has one row per answer, with every column, UTC and local times, and analysis-ready values")
    func answersCSV() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(timeZone: "America/New_York", label: "BCDFG", on: app.db)
            let bob = try await fixture.participant(on: app.db)
            let awkward = "Tired, but \"fine\".\nSecond line, too"
            let answered = try await fixture.response(
                from: alice, submittedAt: ExportFixture.march(2, 9, 30), beepSentBefore: 90, note: awkward, on: app.db)
            let volunteered = try await fixture.response(
                from: bob, submittedAt: ExportFixture.march(2, 10), mood: 40, note: nil, on: app.db)

            let (header, rows) = try CSVReader.rows(try await exportText(.csv, study: "city-moods", on: app.db))
            #expect(header == [
                "study", "participant_id", "participant_label", "response_id", "survey", "survey_version", "beep_id",
                "origin", "volunteered", "timezone", "language", "scheduled_at_utc", "scheduled_at_local", "sent_at_utc", "sent_at_local",
                "started_at_utc", "started_at_local", "submitted_at_utc", "submitted_at_local", "delay_seconds",
                "question_position", "question_id", "question_type", "question_text", "answer", "answer_status",
            ])
            let questions = ExportFixture.document.content
            #expect(rows.count == 2 * questions.count, "one row per question of each response")

            let first = Array(rows.prefix(questions.count))
            let second = Array(rows.suffix(questions.count))
            #expect(first.allSatisfy { $0["response_id"] == answered.id?.uuidString.lowercased() }, "ordered by submission time")
            #expect(second.allSatisfy { $0["response_id"] == volunteered.id?.uuidString.lowercased() })
            #expect(first.map { $0["question_id"] } == questions.map(\.id), "survey order within a response")
            #expect(first.map { $0["question_position"] } == (1...questions.count).map(String.init))
            #expect(first.map { $0["question_text"] } == questions.map(\.text.text))

            let row = try #require(first.first { $0["question_id"] == "mood" })
            #expect(row["study"] == "city-moods")
            #expect(row["participant_id"] == alice.uuidString.lowercased())
            #expect(row["survey"] == "Daily")
            #expect(row["survey_version"] == "1")
            #expect(row["beep_id"] == answered.$beep.id?.uuidString.lowercased())
            #expect(row["participant_label"] == "BCDFG")
            #expect(row["started_at_utc"] == "2026-03-02T09:29:35.000Z")
            #expect(row["submitted_at_utc"] == "2026-03-02T09:30:00.000Z")
            #expect(row["sent_at_utc"] == "2026-03-02T09:28:05.000Z")
            #expect(row["scheduled_at_utc"] == "2026-03-02T09:28:04.000Z")
            // New York is five hours behind UTC on 2 March 2026 (daylight saving starts on 8 March).
            #expect(row["timezone"] == "America/New_York")
            #expect(row["started_at_local"] == "2026-03-02T04:29:35.000")
            #expect(row["submitted_at_local"] == "2026-03-02T04:30:00.000")
            #expect(row["scheduled_at_local"] == "2026-03-02T04:28:04.000")
            #expect(row["delay_seconds"] == "90")
            #expect(row["volunteered"] == "false")
            #expect(row["origin"] == "random", "the beep's origin; a test beep's answers say test")
            #expect(row["question_type"] == "slider")

            func answer(_ rows: [[String: String]], _ id: String) -> (String?, String?) {
                let row = rows.first { $0["question_id"] == id }
                return (row?["answer"], row?["answer_status"])
            }
            #expect(answer(first, "mood") == ("72.5", "answered"))
            #expect(answer(first, "with_whom") == ("partner;friends", "answered"))
            #expect(answer(first, "outside") == ("true", "answered"), "yes/no answers are booleans, as volunteered is")
            #expect(answer(first, "where") == ("51.5,-0.12;Office", "answered"))
            #expect(answer(first, "note") == (awkward, "answered"), "commas, quotes and line breaks survive quoting")
            #expect(answer(first, "intro") == ("", "NOT_PRESENTED"))
            #expect(answer(second, "note") == ("", "NO_ANSWER_SELECTED"))
            #expect(answer(second, "mood") == ("40", "answered"), "whole numbers without a decimal point")

            let bobRow = try #require(second.first)
            #expect(bobRow["volunteered"] == "true")
            #expect(bobRow["beep_id"] == "" && bobRow["scheduled_at_utc"] == "" && bobRow["scheduled_at_local"] == "")
            #expect(bobRow["delay_seconds"] == "")
            #expect(bobRow["timezone"] == "Europe/London" && bobRow["submitted_at_local"] == "2026-03-02T10:00:00.000")
        }
    }

    @Test("date and participant filters select whole UTC days and named participants")
    func filters() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            let bob = try await fixture.participant(on: app.db)
            var expected: [String: (UUID, Int)] = [:]
            for day in 1...3 {
                for (participant, hour) in [(alice, 0), (bob, 23)] {
                    let submitted = ExportFixture.march(day, hour, hour == 23 ? 59 : 0, hour == 23 ? 59.5 : 0)
                    let response = try await fixture.response(from: participant, submittedAt: submitted, on: app.db)
                    expected[try response.requireID().uuidString.lowercased()] = (participant, day)
                }
            }
            func responses(_ filter: ExportFilter) async throws -> Set<String> {
                let (_, rows) = try CSVReader.rows(try await exportText(.csv, study: "city-moods", filter: filter, on: app.db))
                return Set(rows.compactMap { $0["response_id"] })
            }
            func ids(where include: (UUID, Int) -> Bool) -> Set<String> {
                Set(expected.filter { include($0.value.0, $0.value.1) }.keys)
            }

            let secondDay = try ExportFilter.parse(from: "2026-03-02", to: "2026-03-02", participants: [])
            #expect(try await responses(secondDay) == ids { _, day in day == 2 }, "00:00:00 and 23:59:59.5 both belong to the day")
            let fromSecond = try ExportFilter.parse(from: "2026-03-02", to: nil, participants: [])
            #expect(try await responses(fromSecond) == ids { _, day in day >= 2 })
            let untilFirst = try ExportFilter.parse(from: nil, to: "2026-03-01", participants: [])
            #expect(try await responses(untilFirst) == ids { _, day in day == 1 })
            let onlyBob = try ExportFilter.parse(from: nil, to: nil, participants: [bob.uuidString])
            #expect(try await responses(onlyBob) == ids { participant, _ in participant == bob })
            let both = try ExportFilter.parse(from: "2026-03-03", to: "2026-03-03", participants: [alice.uuidString.lowercased()])
            #expect(try await responses(both) == ids { participant, day in participant == alice && day == 3 })
        }
    }

    @Test("the context CSV has one row per response, with or without context, environment as JSON text")
    func contextCSV() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            let sensed = try await fixture.response(from: alice, submittedAt: ExportFixture.march(4, 8), on: app.db)
            let weather = #"{"condition":"light rain, cold","temperature_c":6.5}"#
            try await ExportFixture.attachEnvironment(to: sensed, weather: weather, airQuality: nil, pollen: nil, on: app.db)
            let bare = try await fixture.response(from: alice, submittedAt: ExportFixture.march(4, 9), context: nil, on: app.db)

            let (header, rows) = try CSVReader.rows(try await exportText(.contextCSV, study: "city-moods", on: app.db))
            #expect(header.starts(with: ["study", "participant_id", "participant_label", "response_id"]))
            #expect(header.contains("sound_peak_db") && header.contains("pollen"))
            #expect(rows.map { $0["response_id"] } == [sensed.id, bare.id].map { $0?.uuidString.lowercased() })
            let row = rows[0]
            #expect(row["latitude"] == "51.5" && row["longitude"] == "-0.12" && row["altitude"] == "20")
            #expect(row["horizontal_accuracy"] == "30" && row["vertical_accuracy"] == "8")
            #expect(row["located_at_utc"] == ExportTimestamp.text(Date(timeIntervalSince1970: 1_772_000_000)))
            #expect(row["sound_average_db"] == "48" && row["sound_peak_db"] == "63.5")
            #expect(row["battery"] == "0.8" && row["connection"] == "wifi" && row["steps"] == "120")
            #expect(row["impetus"] == "notification")
            #expect(row["weather"] == weather)
            #expect(row["air_quality"] == "")
            #expect(rows[1]["latitude"] == "" && rows[1]["connection"] == "", "no context, empty columns")
            #expect(rows[1]["submitted_at_utc"] == "2026-03-04T09:00:00.000Z")
        }
    }

    @Test("keyset paging returns every response exactly once, in order, even when many share a time")
    func pagingWithTies() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            // Fractions of a millisecond, as `Date()` gives, and ties on the same instant.
            let base = Date(timeIntervalSince1970: 1_772_400_000.123_456_7)
            var ids: [String] = []
            for index in 0..<23 {
                let submitted = base.addingTimeInterval(Double(index / 5) * 0.000_3)
                ids.append(try await fixture.response(from: alice, submittedAt: submitted, context: nil, on: app.db)
                    .requireID().uuidString.lowercased())
            }
            for pageSize in [1, 2, 5, 7, 100] {
                let text = try await exportText(.contextCSV, study: "city-moods", pageSize: pageSize, on: app.db)
                let exported = try CSVReader.rows(text).rows.compactMap { $0["response_id"] }
                #expect(exported.count == ids.count, "page size \(pageSize)")
                #expect(Set(exported) == Set(ids), "page size \(pageSize)")
                let times = try CSVReader.rows(text).rows.compactMap { $0["submitted_at_utc"] }
                #expect(times == times.sorted(), "page size \(pageSize)")
                // A participant's own download pages the other way, numbering each response.
                let newest = String(decoding: try await exportBytes(
                    .wide, study: "city-moods", filter: ExportFilter(participantIDs: [alice]), pageSize: pageSize,
                    newestFirst: true, on: app.db).data, as: UTF8.self)
                let numbered = try CSVReader.rows(newest).rows
                #expect(numbered.compactMap { $0["sequence"] } == (1...ids.count).reversed().map(String.init), "page size \(pageSize)")
                #expect(Set(numbered.compactMap { $0["response_id"] }) == Set(ids), "page size \(pageSize)")
            }
        }
    }
}

@Suite("Exports: formula injection")
struct ExportFormulaInjectionTests {
    static let attack = "=1+2+cmd|' /C calc'!A0"

    @Test("free text that a spreadsheet would run as a formula is neutralised in CSV; numbers stay numbers")
    func csvNeutralisesFormulas() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            for (hour, note) in [(8, Self.attack), (9, "@SUM(A1)"), (10, "-2+3"), (11, "\tindented"), (12, "+44 20 7946 0000")] {
                try await fixture.response(from: alice, submittedAt: ExportFixture.march(5, hour), note: note, on: app.db)
            }
            let text = String(decoding: try await exportBytes(.csv, study: "city-moods", on: app.db).data, as: UTF8.self)
            let (_, rows) = try CSVReader.rows(text)
            let notes = rows.filter { $0["question_id"] == "note" }.compactMap { $0["answer"] }
            #expect(notes == ["'" + Self.attack, "'@SUM(A1)", "'-2+3", "'\tindented", "'+44 20 7946 0000"])
            #expect(!text.contains("\n=") && !text.contains(",=1+2"))
            #expect(rows.contains { $0["question_id"] == "mood" && $0["answer"] == "72.5" })
        }
        #expect(CSVText.neutralized("-12.5") == "-12.5")
        #expect(CSVText.neutralized("+3") == "+3")
        #expect(CSVText.neutralized("plain") == "plain")
    }

    @Test("the workbook keeps such text as an inline string, which Excel never evaluates")
    func workbookKeepsTextAsText() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            try await fixture.response(from: alice, submittedAt: ExportFixture.march(5, 8), note: Self.attack, on: app.db)
            let workbook = try XLSXInspection(data: try await exportBytes(.xlsx, study: "city-moods", on: app.db).data)
            let cell = try #require(try workbook.cells(of: "Responses").joined().first { $0.text == Self.attack })
            #expect(cell.type == "inlineStr")
            #expect(!(try workbook.sheetXML("Responses")).contains("<f>"), "no formula elements")
        }
    }
}

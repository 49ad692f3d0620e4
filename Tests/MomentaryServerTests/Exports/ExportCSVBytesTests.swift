import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

/// The exact bytes of CSV exports for values a writer can get wrong: quotes, line breaks, commas,
/// text a spreadsheet would run as a formula, non-ASCII text, NULLs, fractions of a second and
/// local times on both sides of a daylight-saving change. The expected text is written out by
/// hand (only the random ids are filled in), so any change in escaping, number or time formatting
/// shows here even where a lenient CSV parser would hide it.
@Suite("Exports: CSV bytes")
struct ExportCSVBytesTests {
    /// Three responses: Alice's (New York, labelled) answering a beep with a multi-line note;
    /// Bob's (London, no label) volunteered across the start of British Summer Time with a
    /// formula-looking note and weather JSON; Bob's again with non-ASCII text padded by a space and no context.
    struct Seeded {
        var alice = "", bob = "", first = "", second = "", third = "", beep = ""
    }

    static func seed(on db: any Database) async throws -> Seeded {
        let fixture = try await ExportFixture.make(on: db)
        let alice = try await fixture.participant(timeZone: "America/New_York", label: "BCDFG", on: db)
        let bob = try await fixture.participant(on: db)
        let first = try await fixture.response(
            from: alice, submittedAt: ExportFixture.march(2, 9, 30), beepSentBefore: 90,
            note: "Tired, but \"fine\".\nSecond line, too", on: db)
        // 01:00 UTC on 29 March 2026 is when London moves from GMT to BST: started at 00:59:45.5
        // local (GMT), submitted at 02:00:10.5 local (BST).
        let second = try await fixture.response(
            from: bob, submittedAt: ExportFixture.march(29, 1, 0, 10.5), mood: -0.5, note: "=1+2", on: db)
        try await ExportFixture.attachEnvironment(
            to: second, weather: #"{"condition":"light rain, cold","temperature_c":6.5}"#, airQuality: nil, pollen: nil, on: db)
        let third = try await fixture.response(
            from: bob, submittedAt: ExportFixture.march(30, 12), mood: 100, note: " Café ☕, naïve", context: nil, on: db)
        func id(_ value: UUID?) -> String { value?.uuidString.lowercased() ?? "" }
        return Seeded(
            alice: id(alice), bob: id(bob), first: id(first.id), second: id(second.id), third: id(third.id),
            beep: id(first.$beep.id))
    }

    @Test("the long CSV is byte for byte what analysts' tools have read so far")
    func longCSVBytes() async throws {
        try await withTestApp { app, _ in
            let s = try await Self.seed(on: app.db)
            let text = try await exportText(.csv, study: "city-moods", pageSize: 2, on: app.db)
            let header = "study,participant_id,participant_label,response_id,survey,survey_version,beep_id,origin,volunteered,timezone,language,"
                + "scheduled_at_utc,scheduled_at_local,sent_at_utc,sent_at_local,started_at_utc,started_at_local,"
                + "submitted_at_utc,submitted_at_local,delay_seconds,question_position,question_id,question_type,"
                + "question_text,answer,answer_status\r\n"
            let first = "city-moods,\(s.alice),BCDFG,\(s.first),Daily,1,\(s.beep),random,false,America/New_York,en,"
                + "2026-03-02T09:28:04.000Z,2026-03-02T04:28:04.000,2026-03-02T09:28:05.000Z,2026-03-02T04:28:05.000,"
                + "2026-03-02T09:29:35.000Z,2026-03-02T04:29:35.000,2026-03-02T09:30:00.000Z,2026-03-02T04:30:00.000,90,"
            let second = "city-moods,\(s.bob),,\(s.second),Daily,1,,,true,Europe/London,en,,,,,"
                + "2026-03-29T00:59:45.500Z,2026-03-29T00:59:45.500,2026-03-29T01:00:10.500Z,2026-03-29T02:00:10.500,,"
            let third = "city-moods,\(s.bob),,\(s.third),Daily,1,,,true,Europe/London,en,,,,,"
                + "2026-03-30T11:59:35.000Z,2026-03-30T12:59:35.000,2026-03-30T12:00:00.000Z,2026-03-30T13:00:00.000,,"
            func answers(mood: String, note: String) -> [String] {
                [
                    "1,intro,info_text_box,A few quick questions.,,NOT_PRESENTED",
                    "2,mood,slider,\"How do you feel, from 0 to 100?\",\(mood),answered",
                    "3,with_whom,checkbox,Who are you with?,partner;friends,answered",
                    "4,outside,yes_no,Are you outdoors?,true,answered",
                    "5,where,location,Where are you?,\"51.5,-0.12;Office\",answered",
                    "6,note,free_response,\"Anything else? Say it \"\"briefly\"\", please.\",\(note),answered",
                ]
            }
            var expected = header
            for (leading, mood, note) in [
                (first, "72.5", "\"Tired, but \"\"fine\"\".\nSecond line, too\""),
                (second, "-0.5", "'=1+2"),
                (third, "100", "\" Café ☕, naïve\""),
            ] {
                for answer in answers(mood: mood, note: note) { expected += leading + answer + "\r\n" }
            }
            #expect(text == expected)
        }
    }

    @Test("the context CSV is byte for byte what analysts' tools have read so far")
    func contextCSVBytes() async throws {
        try await withTestApp { app, _ in
            let s = try await Self.seed(on: app.db)
            let text = try await exportText(.contextCSV, study: "city-moods", on: app.db)
            let lines = text.components(separatedBy: "\r\n")
            try #require(lines.count == 5, "header, three rows, and the empty text after the last CRLF")
            #expect(lines[0] == "study,participant_id,participant_label,response_id,survey,survey_version,beep_id,"
                + "origin,volunteered,timezone,language,scheduled_at_utc,scheduled_at_local,sent_at_utc,sent_at_local,started_at_utc,"
                + "started_at_local,submitted_at_utc,submitted_at_local,delay_seconds,latitude,longitude,altitude,"
                + "horizontal_accuracy,vertical_accuracy,located_at_utc,located_at_local,place,country,sound_average_db,"
                + "sound_peak_db,battery,connection,steps,impetus,weather,air_quality,pollen")
            let sensed = "51.5,-0.12,20,30,8,2026-02-25T06:13:20.000Z,,,,48,63.5,0.8,wifi,120,notification,,,"
            #expect(lines[1] == "city-moods,\(s.alice),BCDFG,\(s.first),Daily,1,\(s.beep),random,false,America/New_York,en,"
                + "2026-03-02T09:28:04.000Z,2026-03-02T04:28:04.000,2026-03-02T09:28:05.000Z,2026-03-02T04:28:05.000,"
                + "2026-03-02T09:29:35.000Z,2026-03-02T04:29:35.000,2026-03-02T09:30:00.000Z,2026-03-02T04:30:00.000,90,"
                + sensed.replacingOccurrences(of: "06:13:20.000Z,", with: "06:13:20.000Z,2026-02-25T01:13:20.000"))
            #expect(lines[2] == "city-moods,\(s.bob),,\(s.second),Daily,1,,,true,Europe/London,en,,,,,"
                + "2026-03-29T00:59:45.500Z,2026-03-29T00:59:45.500,2026-03-29T01:00:10.500Z,2026-03-29T02:00:10.500,,"
                + String(sensed.replacingOccurrences(of: "06:13:20.000Z,", with: "06:13:20.000Z,2026-02-25T06:13:20.000").dropLast(2))
                + #""{""condition"":""light rain, cold"",""temperature_c"":6.5}",,"#)
            #expect(lines[3] == "city-moods,\(s.bob),,\(s.third),Daily,1,,,true,Europe/London,en,,,,,"
                + "2026-03-30T11:59:35.000Z,2026-03-30T12:59:35.000,2026-03-30T12:00:00.000Z,2026-03-30T13:00:00.000,,"
                + ",,,,,,,,,,,,,,,,,")
            #expect(lines[4] == "")
        }
    }
}

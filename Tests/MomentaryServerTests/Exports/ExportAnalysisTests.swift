import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Synchronization
import Testing

@Suite("Exports: wide, beeps, codebook and archive")
struct ExportAnalysisTests {
    @Test("the wide CSV has one row per response, a column per question, 0/1 columns per option and a status per question")
    func wideCSV() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(timeZone: "Asia/Tokyo", label: "KMNPQ", on: app.db)
            let beeped = try await fixture.response(
                from: alice, submittedAt: ExportFixture.march(2, 9, 30), beepSentBefore: 90, note: "Fine.", on: app.db)
            let skipped = try await fixture.response(from: alice, submittedAt: ExportFixture.march(2, 12), note: nil, on: app.db)

            let (header, rows) = try CSVReader.rows(try await exportText(.wide, study: "city-moods", on: app.db))
            #expect(Array(header.prefix(ResponseColumns.header.count)) == ResponseColumns.header)
            #expect(Array(header.dropFirst(ResponseColumns.header.count)) == [
                "mood", "mood_status", "with_whom_alone", "with_whom_partner", "with_whom_friends", "with_whom_status",
                "outside", "outside_status", "where", "where_status", "note", "note_status",
            ], "information screens have no columns; multiple choice has one column per option")
            #expect(rows.map { $0["response_id"] } == [beeped.id, skipped.id].map { $0?.uuidString.lowercased() })

            let first = rows[0]
            #expect(first["participant_label"] == "KMNPQ" && first["timezone"] == "Asia/Tokyo")
            #expect(first["submitted_at_utc"] == "2026-03-02T09:30:00.000Z" && first["submitted_at_local"] == "2026-03-02T18:30:00.000")
            #expect(first["mood"] == "72.5" && first["mood_status"] == "answered")
            #expect(first["with_whom_alone"] == "0" && first["with_whom_partner"] == "1" && first["with_whom_friends"] == "1")
            #expect(first["outside"] == "true")
            #expect(first["where"] == "51.5,-0.12;Office")
            #expect(first["note"] == "Fine." && first["delay_seconds"] == "90")
            #expect(rows[1]["note"] == "" && rows[1]["note_status"] == "NO_ANSWER_SELECTED")
            #expect(rows[1]["volunteered"] == "true" && rows[1]["beep_id"] == "")
        }
    }

    @Test("the beeps CSV has one row per beep with its fate, last channel, response and local times")
    func beepsCSV() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(timeZone: "Europe/Berlin", label: "RSTVW", on: app.db)
            let answered = try await fixture.response(
                from: alice, submittedAt: ExportFixture.march(3, 9), beepSentBefore: 120, on: app.db)
            let missed = try await Self.beep(for: alice, in: fixture, at: ExportFixture.march(3, 14), status: .missed, on: app.db)
            try await Self.attempt(missed, channel: "webpush", outcome: "accepted", at: ExportFixture.march(3, 14), on: app.db)
            let pending = try await Self.beep(for: alice, in: fixture, at: ExportFixture.march(4, 10), status: .pending, on: app.db)

            let (header, rows) = try CSVReader.rows(try await exportText(.beeps, study: "city-moods", on: app.db))
            for column in ["participant_label", "beep_id", "response_id", "timezone", "scheduled_at_utc", "scheduled_at_local",
                           "sent_at_utc", "sent_at_local", "channel", "status", "delay_seconds"] {
                #expect(header.contains(column), "\(column)")
            }
            #expect(rows.map { $0["beep_id"] } == [answered.$beep.id, missed, pending].map { $0?.uuidString.lowercased() },
                    "in scheduled order")
            #expect(rows[0]["status"] == "answered" && rows[0]["response_id"] == answered.id?.uuidString.lowercased())
            #expect(rows[0]["delay_seconds"] == "120")
            #expect(rows[1]["status"] == "missed" && rows[1]["channel"] == "webpush" && rows[1]["delivery_outcome"] == "accepted")
            #expect(rows[1]["response_id"] == "")
            #expect(rows[1]["scheduled_at_utc"] == "2026-03-03T14:00:00.000Z" && rows[1]["scheduled_at_local"] == "2026-03-03T15:00:00.000")
            #expect(rows[2]["status"] == "pending" && rows[2]["sent_at_utc"] == "")
            #expect(rows.allSatisfy { $0["participant_label"] == "RSTVW" && $0["timezone"] == "Europe/Berlin" })

            let onlyFourth = try ExportFilter.parse(from: "2026-03-04", to: nil, participants: [])
            let (_, filtered) = try CSVReader.rows(try await exportText(.beeps, study: "city-moods", filter: onlyFourth, on: app.db))
            #expect(filtered.map { $0["beep_id"] } == [pending.uuidString.lowercased()], "filtered by the day scheduled")
            for pageSize in [1, 2] {
                let paged = try CSVReader.rows(try await exportText(.beeps, study: "city-moods", pageSize: pageSize, on: app.db)).rows
                #expect(paged.map { $0["beep_id"] } == rows.map { $0["beep_id"] }, "page size \(pageSize)")
            }
        }
    }

    @Test("the codebook has a row per question, or per option, with types, labels and scales")
    func codebookCSV() async throws {
        try await withTestApp { app, _ in
            _ = try await ExportFixture.make(on: app.db)
            let (header, rows) = try CSVReader.rows(try await exportText(.codebook, study: "city-moods", on: app.db))
            #expect(header.starts(with: ["survey", "survey_kind", "survey_version", "question_position", "question_id"]))
            let questions = ExportFixture.document.content
            let optionCount = questions.map { $0.kind.options.count }.reduce(0, +)
            let withoutOptions = questions.filter { $0.kind.options.isEmpty }.count
            #expect(rows.count == optionCount + withoutOptions)
            let partner = try #require(rows.first { $0["question_id"] == "with_whom" && $0["option_value"] == "partner" })
            #expect(partner["option_label"] == "My partner" && partner["option_position"] == "2")
            #expect(partner["question_type"] == "checkbox" && partner["survey"] == "Daily" && partner["survey_version"] == "1")
            let mood = try #require(rows.first { $0["question_id"] == "mood" })
            #expect(mood["min"] == "0" && mood["max"] == "100" && mood["step"] == "0.5" && mood["option_value"] == "")
            #expect(mood["question_text"] == "How do you feel, from 0 to 100?" && mood["required"] == "false")
        }
    }

    @Test("CSV can start with a byte-order mark for Excel; format names include the older csv and context-csv")
    func byteOrderMarkAndNames() async throws {
        try await withTestApp { app, _ in
            _ = try await ExportFixture.make(on: app.db)
            for format in ExportFormat.allCases where format.isCSV {
                let export = try await StudyExport.prepare(
                    ExportRequest(study: "city-moods", format: format, byteOrderMark: true), on: app.db)
                let data = try await Self.collect(export)
                #expect(data.starts(with: [0xEF, 0xBB, 0xBF]), "\(format)")
                let plain = try await exportBytes(format, study: "city-moods", on: app.db).data
                #expect(!plain.starts(with: [0xEF, 0xBB, 0xBF]), "\(format) without the option")
            }
        }
        #expect(ExportFormat(name: "csv") == .long && ExportFormat(name: "context-csv") == .context)
        #expect(ExportFormat(name: "archive") == .archive && ExportFormat(name: "pdf") == nil)
    }

    @Test("the archive holds every format, a README and the photos, by participant label")
    func archive() async throws {
        try await withTestApp { app, configuration in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(label: "XZBCD", on: app.db)
            let response = try await fixture.response(from: alice, submittedAt: ExportFixture.march(5, 9), on: app.db)
            let photo = Data("not really a jpeg".utf8)
            let blob = try await PhotoFixture.store(photo, at: "photos/test.jpg", participant: alice, response: try response.requireID(),
                                         in: BlobStore(dataDirectory: configuration.dataDirectory), on: app.db)

            let export = try await StudyExport.prepare(
                ExportRequest(study: "city-moods", format: .archive), on: app.db, photosIn: configuration.dataDirectory)
            #expect(export.fileName == "city-moods-study.zip")
            let zip = try XLSXInspection(data: try await Self.collect(export))
            let names = Set(zip.parts.keys)
            for format in StudyExport.archivedFormats where format != .wide {
                #expect(names.contains(format.fileName(study: "city-moods")), "\(format)")
            }
            #expect(names.contains("city-moods-responses-wide-daily.csv"), "a wide table per survey: \(names.sorted())")
            #expect(names.contains("README.txt"))
            #expect(try zip.text("README.txt").contains("city-moods-responses-wide-daily.csv  the survey “Daily”"))
            let photoPath = "photos/XZBCD/\(try response.requireID().uuidString.lowercased())-\(try blob.requireID().uuidString.lowercased().prefix(8)).jpg"
            #expect(zip.parts[photoPath] == photo, "\(names.sorted())")
            let long = try CSVReader.rows(try zip.text("city-moods-answers.csv")).rows
            #expect(long.count == ExportFixture.document.content.count)
        }
    }

    static func beep(for participant: UUID, in fixture: ExportFixture, at scheduled: Date, status: Beep.Status, on db: any Database) async throws -> UUID {
        let beep = Beep()
        beep.$participant.id = participant
        beep.$study.id = try fixture.study.requireID()
        beep.origin = .random
        beep.localDate = ExportFixture.localDate(of: scheduled)
        beep.sequence = Int.random(in: 0..<1_000_000_000)
        beep.scheduledAt = scheduled
        beep.sentAt = status == .pending ? nil : scheduled
        beep.deliveryOutcome = status == .pending ? nil : "accepted"
        beep.status = status
        beep.createdAt = scheduled
        try await beep.save(on: db)
        return try beep.requireID()
    }

    static func attempt(_ beep: UUID, channel: String, outcome: String, at time: Date, on db: any Database) async throws {
        let attempt = DeliveryAttempt()
        attempt.$beep.id = beep
        attempt.channel = channel
        attempt.attemptedAt = time
        attempt.outcome = outcome
        try await attempt.save(on: db)
    }

    static func collect(_ export: StudyExport) async throws -> Data {
        let collected = Mutex(Data())
        try await export.write { chunk in collected.withLock { $0.append(contentsOf: chunk.readableBytesView) } }
        return collected.withLock { $0 }
    }
}

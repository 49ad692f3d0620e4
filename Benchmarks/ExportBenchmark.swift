import Fluent
import Foundation
import MomentaryCore
import MomentaryServer
import SQLKit
import Vapor

/// Export throughput and memory: a file SQLite database holding `answers` answers (the demo
/// experience-sampling survey, nine questions a response, from 1,000 participants, half of the
/// responses answering a beep, each with context), exported as the long CSV, the wide CSV and the
/// beeps CSV to /dev/null. Peak memory is the
/// process's resident high-water mark (`VmHWM`), reset after seeding so it covers the export alone.
/// The limit beside each figure, from the same run and file: `sqlite3 -csv` running the long
/// table's join (every answer with its response, participant, survey and beep, in export order)
/// to /dev/null, the floor any exporter pays to read the rows. Wall and CPU seconds are both
/// printed, since CPU time is the steadier measure on a shared machine. Prints one JSON line per
/// format.
enum ExportBenchmark {
    static func run(answers: Int) async throws {
        try await run(answers: answers, formats: [.long, .wide, .beeps])
    }

    static func run(answers: Int, formats: [ExportFormat]) async throws {
        try await BenchmarkApp.run("export") { app, directory in
            let seedStarted = Date()
            let slug = try await ExportSeeder(answers: answers).seed(app.db)
            let seedSeconds = Date().timeIntervalSince(seedStarted)
            let database = directory.appendingPathComponent(Configuration.sqliteFileName).path
            for format in formats {
                let limit = try sqliteLimit(database: database, slug: slug)
                print(try await measure(format, slug: slug, seedSeconds: seedSeconds, limit: limit, on: app.db))
            }
        }
    }

    private static func measure(
        _ format: ExportFormat, slug: String, seedSeconds: Double, limit: ToolRun, on db: any Database
    ) async throws -> String {
        let residentBefore = memoryFigure("VmRSS")
        resetPeakMemory()
        let sink = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
        defer { try? sink.close() }
        let cpuBefore = processCPUSeconds()
        let started = ContinuousClock.now
        let export = try await StudyExport.prepare(ExportRequest(study: slug, format: format), on: db)
        let summary = try await export.write { chunk in try sink.write(contentsOf: chunk.readableBytesView) }
        let elapsed = seconds(since: started)
        let cpuSeconds = processCPUSeconds() - cpuBefore
        let rate = Double(summary.rows) / elapsed
        let limitRate = Double(limit.rows) / limit.wallSeconds
        let fields: [(String, String)] = [
            ("benchmark", "\"export-\(format.rawValue)\""),
            ("answers", String(summary.rows)),
            ("responses", String(summary.responses)),
            ("seconds", String(format: "%.2f", elapsed)),
            ("rows_per_second", String(Int(rate))),
            ("cpu_seconds", String(format: "%.2f", cpuSeconds)),
            ("sqlite3_rows", String(limit.rows)),
            ("sqlite3_seconds", String(format: "%.2f", limit.wallSeconds)),
            ("sqlite3_cpu_seconds", String(format: "%.2f", limit.cpuSeconds)),
            ("sqlite3_rows_per_second", String(Int(limitRate))),
            ("ratio_to_sqlite3", String(format: "%.3f", rate / limitRate)),
            // CPU per row against sqlite3's CPU per answer row: like for like for the long CSV and
            // the workbook (a row per answer), not for the tables with a row per response or beep.
            ("cpu_ratio_to_sqlite3", String(format: "%.3f",
                (limit.cpuSeconds / Double(max(1, limit.rows))) / (cpuSeconds / Double(max(1, summary.rows))))),
            ("megabytes", String(format: "%.1f", Double(summary.bytes) / 1_048_576)),
            ("peak_rss_mb", String(format: "%.1f", memoryFigure("VmHWM") / 1024)),
            ("rss_before_mb", String(format: "%.1f", residentBefore / 1024)),
            ("seed_seconds", String(format: "%.1f", seedSeconds)),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// `sqlite3 -csv` writing the long table's rows (without the survey document, which it cannot
    /// parse) in export order to /dev/null, and the number of rows it wrote.
    private static func sqliteLimit(database: String, slug: String) throws -> ToolRun {
        let join = """
            FROM answers a JOIN responses r ON r.id = a.response_id JOIN participants p ON p.id = r.participant_id
            JOIN surveys s ON s.id = r.survey_id LEFT JOIN beeps b ON b.id = r.beep_id
            WHERE r.study_id = (SELECT id FROM studies WHERE slug = '\(slug)')
            """
        let query = """
            SELECT r.participant_id, p.label, r.id, s.name, r.survey_version, r.beep_id, r.volunteered, p.timezone,
                b.scheduled_at, b.sent_at, r.started_at, r.submitted_at, r.delay_seconds, a.position, a.question_id,
                a.question_type, a.value, a.status \(join) ORDER BY r.submitted_at, r.id, a.position;
            """
        var run = try ToolRun.measure("/usr/bin/sqlite3", ["-csv", database, query])
        run.rows = try ToolRun.output("/usr/bin/sqlite3", [database, "SELECT COUNT(*) \(join);"])
            .trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: "\n").last.flatMap { Int($0) } ?? 0
        return run
    }
}

/// Bulk rows straight through SQL, in transactions of a few thousand rows a statement.
struct ExportSeeder {
    let answers: Int
    static let participants = 1_000
    static let questions = SampleSurveys.experienceSampling.content

    func seed(_ db: any Database) async throws -> String {
        let now = Date()
        let study = BenchmarkStudyRow(slug: "export-bench", name: "Export benchmark", hours: 480...1_320, maxDueAtOnce: 1_000, now: now)
        let survey = SurveyRow(studyID: study.id, now: now)
        let version = VersionRow(surveyID: survey.id, document: String(decoding: try SampleSurveys.experienceSampling.jsonData(), as: UTF8.self), now: now)
        let participants = (0..<Self.participants).map { _ in
            BenchmarkParticipantRow(studyID: study.id, hours: 480...1_320, registeredOn: "2026-01-01", plannedThrough: nil, now: now)
        }
        try await db.transaction { tx in
            let sql = tx.sql
            try await BenchmarkApp.insert([study], into: "studies", on: sql)
            try await BenchmarkApp.insert([survey], into: "surveys", on: sql)
            try await BenchmarkApp.insert([version], into: "survey_versions", on: sql)
            try await BenchmarkApp.insert(participants, into: "participants", on: sql)
        }
        let responseCount = (answers + Self.questions.count - 1) / Self.questions.count
        var generator = SystemRandomNumberGenerator()
        let start = now.addingTimeInterval(-Double(responseCount) * 60)
        for batchStart in stride(from: 0, to: responseCount, by: 5_000) {
            var beeps: [BeepRow] = []
            var responses: [ResponseRow] = []
            var contexts: [ContextRow] = []
            var answerRows: [AnswerRow] = []
            for index in batchStart..<min(batchStart + 5_000, responseCount) {
                let participant = participants[index % participants.count].id
                let submitted = start.addingTimeInterval(Double(index) * 60 + Double.random(in: 0..<1, using: &generator))
                var beepID: UUID?
                if index % 2 == 0 {
                    let beep = BeepRow(participantID: participant, studyID: study.id, sequence: index, sentAt: submitted.addingTimeInterval(-300))
                    beeps.append(beep)
                    beepID = beep.id
                }
                let response = ResponseRow(participantID: participant, studyID: study.id, surveyID: survey.id, beepID: beepID, submittedAt: submitted)
                responses.append(response)
                contexts.append(ContextRow(responseID: response.id, weather: index % 3 == 0))
                let questionCount = min(Self.questions.count, answers - index * Self.questions.count)
                for position in 0..<questionCount {
                    answerRows.append(AnswerRow(responseID: response.id, position: position, question: Self.questions[position], using: &generator))
                }
            }
            try await db.transaction { [beeps, responses, contexts, answerRows] tx in
                let sql = tx.sql
                try await BenchmarkApp.insert(beeps, into: "beeps", on: sql)
                try await BenchmarkApp.insert(responses, into: "responses", on: sql)
                try await BenchmarkApp.insert(contexts, into: "response_contexts", on: sql)
                try await BenchmarkApp.insert(answerRows, into: "answers", on: sql)
            }
        }
        return study.slug
    }

}


private struct SurveyRow: Encodable, Sendable {
    let id = UUID()
    let studyId: UUID
    let kind = "esm"
    let name = "Experience sampling"
    let position = 0
    let currentVersion = 1
    let active = true
    let createdAt: Date
    let updatedAt: Date

    init(studyID: UUID, now: Date) {
        studyId = studyID
        createdAt = now
        updatedAt = now
    }
}

private struct VersionRow: Encodable, Sendable {
    let id = UUID()
    let surveyId: UUID
    let version = 1
    let document: String
    let createdAt: Date

    init(surveyID: UUID, document: String, now: Date) {
        surveyId = surveyID
        self.document = document
        createdAt = now
    }
}


private struct BeepRow: Encodable, Sendable {
    let id = UUID()
    let participantId: UUID
    let studyId: UUID
    let origin = "random"
    let localDate = "2026-01-01"
    let sequence: Int
    let scheduledAt: Date
    let status = "answered"
    let sentAt: Date
    let createdAt: Date

    init(participantID: UUID, studyID: UUID, sequence: Int, sentAt: Date) {
        participantId = participantID
        studyId = studyID
        self.sequence = sequence
        scheduledAt = sentAt
        self.sentAt = sentAt
        createdAt = sentAt
    }
}

private struct ResponseRow: Encodable, Sendable {
    let id = UUID()
    let participantId: UUID
    let studyId: UUID
    let surveyId: UUID
    let surveyVersion = 1
    let beepId: UUID?
    let kind = "esm"
    let volunteered: Bool
    let idempotencyKey: String
    let startedAt: Date
    let submittedAt: Date
    let receivedAt: Date
    let delaySeconds: Double?

    init(participantID: UUID, studyID: UUID, surveyID: UUID, beepID: UUID?, submittedAt: Date) {
        participantId = participantID
        studyId = studyID
        surveyId = surveyID
        beepId = beepID
        volunteered = beepID == nil
        idempotencyKey = id.uuidString
        startedAt = submittedAt.addingTimeInterval(-30)
        self.submittedAt = submittedAt
        receivedAt = submittedAt.addingTimeInterval(1)
        delaySeconds = beepID == nil ? nil : 270
    }
}

private struct ContextRow: Encodable, Sendable {
    let id = UUID()
    let responseId: UUID
    let latitude = 51.5074
    let longitude = -0.1278
    let horizontalAccuracy = 35.0
    let soundAverageDb = 52.5
    let soundPeakDb = 71.0
    let battery = 0.64
    let connection = "wifi"
    let steps = 812
    let impetus = "notification"
    let weather: String?

    init(responseID: UUID, weather: Bool) {
        responseId = responseID
        self.weather = weather ? #"{"condition":"cloudy","temperature_c":14.5}"# : nil
    }
}

private struct AnswerRow: Encodable, Sendable {
    let id = UUID()
    let responseId: UUID
    let position: Int
    let questionId: String
    let questionType: String
    let status: String
    let value: String?

    init(responseID: UUID, position: Int, question: SurveyQuestion, using generator: inout SystemRandomNumberGenerator) {
        responseId = responseID
        self.position = position
        questionId = question.id
        questionType = question.type.rawValue
        let value: String? = switch question.kind {
        case .slider: String(Int.random(in: 0...100, using: &generator))
        case .checkbox(let options): "[\"\(options[Int.random(in: 0..<options.count, using: &generator)].key)\"]"
        case .radioButton(let options): "\"\(options[Int.random(in: 0..<options.count, using: &generator)].key)\""
        case .yesNo: Bool.random(using: &generator) ? "true" : "false"
        case .freeResponse: Bool.random(using: &generator) ? "\"Busy day, \\\"really\\\" busy\"" : nil
        default: nil
        }
        status = value == nil ? "NO_ANSWER_SELECTED" : "answered"
        self.value = value
    }
}

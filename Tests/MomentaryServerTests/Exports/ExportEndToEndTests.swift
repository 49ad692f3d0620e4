import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryCLI
@testable import MomentaryServer
import Testing
import VaporTesting

@Suite("Exports: command line, HTTP and the participant API")
struct ExportEndToEndTests {
    @Test("responses uploaded through the API export with their registration and ESM answers")
    func apiResponses() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            let beep = try await APIFixture.deliveredBeep(for: registration.participantID, minutesAgo: 5, on: server.db)
            _ = try await client.submitResponse(APIFixture.submission(beepID: try beep.requireID()))
            _ = try await client.submitResponse(APIFixture.submission(seed: 9))

            let (_, rows) = try CSVReader.rows(try await exportText(.csv, study: "demo", on: server.db))
            let esm = SampleSurveys.experienceSampling.content
            let registrationQuestions = SampleSurveys.registration.content
            #expect(rows.count == registrationQuestions.count + 2 * esm.count)
            #expect(Set(rows.map { $0["participant_id"] }) == [registration.participantID.uuidString.lowercased()])
            let label = try #require(try await Participant.find(registration.participantID, on: server.db)?.label)
            #expect(Set(rows.map { $0["participant_label"] }) == [label], "every row carries the participant's label")
            let esmRows = rows.filter { row in esm.contains { $0.id == row["question_id"] } }
            #expect(esmRows.count == 2 * esm.count)
            #expect(esmRows.filter { $0["volunteered"] == "false" }.allSatisfy { $0["beep_id"] == beep.id?.uuidString.lowercased() })
            for question in esm {
                #expect(esmRows.first { $0["question_id"] == question.id }?["question_text"] == question.text.text)
            }
            let happy = try #require(esmRows.first { $0["question_id"] == "happy" })
            #expect(Double(happy["answer"] ?? "") != nil, "slider answers are numbers")
        }
    }

    @Test("momentary export writes each format to a file, reports progress, and refuses bad requests")
    func exportCommand() async throws {
        try #require(
            MomentaryCommand.configuration.subcommands.contains { ObjectIdentifier($0) == ObjectIdentifier(ExportCommand.self) },
            "`momentary export` is not registered: add ExportCommand.self to ServerCommands.all")
        let directory = try TestScratch.folder("momentary-export-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = Configuration(
            dataDirectory: directory, database: .sqlite(path: directory.appendingPathComponent(Configuration.sqliteFileName).path),
            environmentName: "testing")
        let participant = try await AppFactory.withApp(configuration) { app in
            app.logger.logLevel = .warning
            try await app.migrateAtomically()
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            try await fixture.response(from: alice, submittedAt: ExportFixture.march(9, 8), on: app.db)
            try await fixture.response(from: alice, submittedAt: ExportFixture.march(10, 8), on: app.db)
            return alice
        }
        let data = ["--data", directory.path]

        let csvFile = directory.appendingPathComponent("answers.csv").path
        let csv = await runCommand(["export", "--study", "city-moods", "--format", "csv", "--from", "2026-03-10", "--output", csvFile] + data)
        #expect(csv.code == 0, "\(csv.errors)")
        let rows = try CSVReader.rows(try String(contentsOfFile: csvFile, encoding: .utf8)).rows
        #expect(rows.count == ExportFixture.document.content.count, "only the response of 10 March")
        #expect(csv.errors.contains("Exported \(rows.count) answer rows from 1 responses"))

        let xlsxFile = directory.appendingPathComponent("responses.xlsx").path
        let xlsx = await runCommand(["export", "--study", "city-moods", "--format", "xlsx", "--participant", participant.uuidString, "--output", xlsxFile] + data)
        #expect(xlsx.code == 0, "\(xlsx.errors)")
        let workbook = try XLSXInspection(data: try Data(contentsOf: URL(fileURLWithPath: xlsxFile)))
        #expect(workbook.sheetNames == ["Responses", "Wide Daily", "Context", "Environment", "Beeps", "Codebook"])
        #expect(try workbook.rows(of: "Context").count == 3)

        let refusals: [[String]] = [
            ["export", "--study", "city-moods", "--format", "xlsx"],
            ["export", "--study", "city-moods", "--format", "csv", "--from", "10 March"],
            ["export", "--study", "city-moods", "--format", "csv", "--participant", UUID().uuidString],
            ["export", "--study", "city-moods", "--format", "pdf"],
        ]
        for arguments in refusals {
            let result = await runCommand(arguments + data)
            #expect(result.code == 2, "\(arguments): \(result.errors)")
            #expect(result.errors.hasPrefix("momentary: ") && !result.errors.contains("\n"), "\(arguments): \(result.errors)")
        }
        let unknown = await runCommand(["export", "--study", "nobody", "--format", "csv", "--output", csvFile] + data)
        #expect(unknown.code == 1 && unknown.errors.contains("known studies: city-moods"), "\(unknown.errors)")
    }

    @Test("over HTTP the export streams as a download with its type and file name")
    func httpDownload() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            for hour in 0..<3 {
                try await fixture.response(from: alice, submittedAt: ExportFixture.march(11, hour), on: app.db)
            }
            app.get("test-export", ":format") { request async throws -> Response in
                guard let format = ExportFormat(name: request.parameters.get("format") ?? "") else { throw Abort(.notFound) }
                let export = try await StudyExport.prepare(ExportRequest(study: "city-moods", format: format), on: request.db)
                return export.response(logger: request.logger)
            }
            let tester = try app.testing(method: .running(port: 0))
            try await tester.test(.GET, "test-export/csv") { response async throws in
                #expect(response.status == .ok)
                #expect(response.headers.first(name: .contentType) == "text/csv; charset=utf-8")
                #expect(response.headers.first(name: .contentDisposition)?.contains("city-moods-answers.csv") == true)
                let rows = try CSVReader.rows(String(buffer: response.body)).rows
                #expect(rows.count == 3 * ExportFixture.document.content.count)
            }
            try await tester.test(.GET, "test-export/xlsx") { response async throws in
                #expect(response.status == .ok)
                let workbook = try XLSXInspection(data: Data(response.body.readableBytesView))
                #expect(try workbook.rows(of: "Context").count == 4)
            }
        }
    }
}

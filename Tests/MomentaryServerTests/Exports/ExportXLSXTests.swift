import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Exports: XLSX workbook")
struct ExportXLSXTests {
    @Test("the workbook has Responses, Context and Environment sheets with typed cells and the expected rows")
    func workbookStructure() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            let first = try await fixture.response(
                from: alice, submittedAt: ExportFixture.march(7, 8), beepSentBefore: 60, note: "Cold <outside> & wet", on: app.db)
            try await ExportFixture.attachEnvironment(
                to: first, weather: #"{"temperature_c":6.5,"condition":"rain"}"#,
                airQuality: #"{"aqi":22,"pollutants":{"pm10":12.41,"o3":9.16}}"#, pollen: #"{"grass":63,"tree":271}"#, on: app.db)
            try await fixture.response(from: alice, submittedAt: ExportFixture.march(7, 9), note: nil, on: app.db)
            try await fixture.response(from: alice, submittedAt: ExportFixture.march(7, 10), context: nil, on: app.db)

            let (data, summary) = try await exportBytes(.xlsx, study: "city-moods", on: app.db)
            let questions = ExportFixture.document.content.count
            #expect(summary.rows == 3 * questions && summary.responses == 3)
            let workbook = try XLSXInspection(data: data)

            let contentTypes = try workbook.text("[Content_Types].xml")
            #expect(contentTypes.contains("spreadsheetml.sheet.main+xml"))
            for number in 1...3 {
                #expect(contentTypes.contains("/xl/worksheets/sheet\(number).xml"))
            }
            #expect(workbook.sheetNames == ["Responses", "Wide Daily", "Context", "Environment", "Beeps", "Codebook"])

            let responses = try workbook.rows(of: "Responses")
            #expect(responses.count == 1 + 3 * questions, "header plus one row per answer")
            #expect(responses[0] == AnswerTable.header)
            let column = Dictionary(uniqueKeysWithValues: AnswerTable.header.enumerated().map { ($0.element, $0.offset) })
            let cells = try workbook.cells(of: "Responses")
            let moodRow = try #require(cells.first { row in row.contains { $0.text == "mood" } })
            let mood = try #require(moodRow.first { $0.column == column["answer"] })
            #expect(mood.type == nil && mood.text == "72.5", "numbers are number cells")
            let submitted = try #require(moodRow.first { $0.column == column["submitted_at_utc"] })
            #expect(submitted.style == "1", "instants are date cells")
            let serial = try #require(Double(submitted.text))
            #expect(abs(serial - (Double(LocalDate(year: 2026, month: 3, day: 7)!.daysSinceEpoch) + 25_569 + 8.0 / 24)) < 1e-9)
            let volunteered = try #require(moodRow.first { $0.column == column["volunteered"] })
            #expect(volunteered.type == "b" && volunteered.text == "0")
            let note = try #require(responses.first { $0.count > column["answer"]! && $0[column["question_id"]!] == "note" })
            #expect(note[column["answer"]!] == "Cold <outside> & wet", "markup characters are escaped, not lost")

            let context = try workbook.rows(of: "Context")
            #expect(context.count == 1 + 3)
            #expect(context[0] == ContextTable.header)

            let environment = try workbook.rows(of: "Environment")
            #expect(environment.count == 1 + 1, "only the response with environment data")
            let header = environment[0]
            #expect(header.starts(with: EnvironmentTable.fixedHeader))
            for name in ["weather.temperature_c", "weather.condition", "air_quality.aqi", "air_quality.pollutants.pm10", "pollen.tree"] {
                #expect(header.contains(name), "\(name) in \(header)")
            }
            let values = Dictionary(uniqueKeysWithValues: zip(header, environment[1] + Array(repeating: "", count: max(0, header.count - environment[1].count))))
            #expect(values["air_quality.pollutants.pm10"] == "12.41" && values["pollen.tree"] == "271")
            #expect(values["weather.condition"] == "rain")
            #expect(values["response_id"] == first.id?.uuidString.lowercased())

            try await checkWithOpenpyxl(data, expectedRows: ["Responses": 3 * questions, "Context": 3, "Environment": 1])
        }
    }

    @Test("a sheet that outgrows its row limit continues on numbered sheets, each with the header")
    func continuationSheets() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            for hour in 0..<4 {
                try await fixture.response(from: alice, submittedAt: ExportFixture.march(8, hour), on: app.db)
            }
            let data = try await exportBytes(.xlsx, study: "city-moods", pageSize: 3, maxRowsPerSheet: 10, on: app.db).data
            let workbook = try XLSXInspection(data: data)
            // 24 answers at 10 rows a sheet: 10 + 10 + 4.
            #expect(workbook.sheetNames == ["Responses", "Responses (2)", "Responses (3)", "Wide Daily", "Context", "Environment", "Beeps", "Codebook"])
            #expect(try workbook.rows(of: "Responses").count == 11)
            #expect(try workbook.rows(of: "Responses (2)").count == 11)
            #expect(try workbook.rows(of: "Responses (3)").count == 5)
            #expect(try workbook.rows(of: "Responses (3)").first == AnswerTable.header)
            #expect(try workbook.rows(of: "Context").count == 5)
            let answerIDs = try ["Responses", "Responses (2)", "Responses (3)"].flatMap { try workbook.rows(of: $0).dropFirst() }
            #expect(answerIDs.count == 24)
        }
    }

    /// Opens the workbook with openpyxl through `scripts/check_xlsx.py` when Python has openpyxl
    /// (CI installs it and sets MOMENTARY_TEST_REQUIRE_OPENPYXL=1, so there it cannot be skipped);
    /// the structural checks above run in any case.
    private func checkWithOpenpyxl(_ data: Data, expectedRows: [String: Int]) async throws {
        let pythonHasOpenpyxl = (try? await runToEndOffThread("/usr/bin/env", ["python3", "-c", "import openpyxl"]))?.status == 0
        if ProcessInfo.processInfo.environment["MOMENTARY_TEST_REQUIRE_OPENPYXL"] == "1" {
            #expect(pythonHasOpenpyxl, "python3 cannot import openpyxl, which this run requires")
        }
        guard pythonHasOpenpyxl else { return }
        let file = TestScratch.file("export", suffix: ".xlsx")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/check_xlsx.py")
        let arguments = [script.path, file.path] + expectedRows.sorted { $0.key < $1.key }.map { "--rows=\($0.key)=\($0.value)" }
        let (status, output) = try await runToEndOffThread("/usr/bin/env", ["python3"] + arguments)
        #expect(status == 0, "openpyxl could not read the workbook: \(output)")
    }
}

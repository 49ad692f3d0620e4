import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryCLI
@testable import MomentaryServer
import Testing

/// The command line on a real SQLite file, with the Reporter files of `Fixtures/Reporter`: daily
/// files of 2014 and 2015 versions (every shape of FORMATS.md §3) and the full export.
struct ReporterCommandLine {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Reporter")
    static let daily = fixtures.appendingPathComponent("daily")
    static let fullExport = fixtures.appendingPathComponent(ReporterDay.fullExportFileName)

    let directory: URL
    var configuration: Configuration {
        Configuration(
            dataDirectory: directory, database: .sqlite(path: directory.appendingPathComponent(Configuration.sqliteFileName).path),
            environmentName: "testing")
    }

    /// A data directory whose database has the study `city-moods` (zone New York).
    static func make() async throws -> ReporterCommandLine {
        let made = ReporterCommandLine(directory: try TestScratch.folder("momentary-reporter"))
        try await AppFactory.withApp(made.configuration) { app in
            app.logger.logLevel = .warning
            try await app.migrateAtomically()
            _ = try await ExportFixture.make(on: app.db)
        }
        return made
    }

    func run(_ arguments: [String]) async -> (code: Int32, output: String, errors: String) {
        await runCommand(arguments + ["--data", directory.path])
    }

    /// Imports `path`, expecting success; returns the participant's label and what was printed.
    func importReporter(_ path: URL) async throws -> (label: String, output: String) {
        let result = await run(["import", "reporter", "--study", "city-moods", path.path])
        #expect(result.code == 0, "\(result.errors)")
        let named = try #require(result.output.range(of: "participant "), "\(result.output)")
        return (String(result.output[named.upperBound...].prefix { $0.isLetter || $0.isNumber }), result.output)
    }

    /// Exports the participant's files into a new folder.
    func exportReporter(_ label: String) async throws -> URL {
        let output = try TestScratch.folder("momentary-reporter-out")
        let result = await run(["export", "reporter", "--study", "city-moods", "--participant", label, "--output", output.path])
        #expect(result.code == 0, "\(result.errors)")
        return output
    }

    func withDatabase<T>(_ body: (any Database) async throws -> T) async throws -> T {
        try await AppFactory.withApp(configuration) { app in try await body(app.db) }
    }

    static func json(_ url: URL) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
    }

    static func dailyNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: daily.path).filter { $0.hasSuffix(".json") }.sorted()
    }
}

@Suite("Reporter files as the app writes them")
struct ReporterFixtureTests {
    @Test("daily files of every app version come back equal, JSON for JSON, after import and export; so does the full export")
    func dailyRoundTrip() async throws {
        let commandLine = try await ReporterCommandLine.make()
        let (label, output) = try await commandLine.importReporter(ReporterCommandLine.daily)
        #expect(output.contains("Imported 10 reports from 6 files as new participant"), "\(output)")
        let exported = try await commandLine.exportReporter(label)
        for name in try ReporterCommandLine.dailyNames() {
            let original = try ReporterCommandLine.json(ReporterCommandLine.daily.appendingPathComponent(name))
            let back = try ReporterCommandLine.json(exported.appendingPathComponent(name))
            #expect(back == original, "\(name)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: exported.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names == (try ReporterCommandLine.dailyNames()) + [ReporterDay.fullExportFileName])
        #expect(try ReporterCommandLine.json(exported.appendingPathComponent(ReporterDay.fullExportFileName))
            == ReporterCommandLine.json(ReporterCommandLine.fullExport), "the full export: every day, the latest questions")

        let again = try await commandLine.importReporter(ReporterCommandLine.daily)
        #expect(again.label == label && again.output.contains("Imported 0 reports from 6 files as participant \(label); 10 were already there."))
    }

    @Test("the full export, in a folder or given as the file, comes back equal; its days are the daily files' reports")
    func fullExportRoundTrip() async throws {
        let commandLine = try await ReporterCommandLine.make()
        // The fixtures folder holds the full export (its daily/ subfolder is not read).
        let (label, output) = try await commandLine.importReporter(ReporterCommandLine.fixtures)
        #expect(output.contains("Imported 10 reports from 1 file as new participant"), "\(output)")
        let exported = try await commandLine.exportReporter(label)
        #expect(try ReporterCommandLine.json(exported.appendingPathComponent(ReporterDay.fullExportFileName))
            == ReporterCommandLine.json(ReporterCommandLine.fullExport))
        for name in try ReporterCommandLine.dailyNames() {
            let original = try ReporterCommandLine.json(ReporterCommandLine.daily.appendingPathComponent(name))
            let back = try ReporterCommandLine.json(exported.appendingPathComponent(name))
            #expect(back.objectValue?["snapshots"] == original.objectValue?["snapshots"], "\(name), at the zone each report was lived in")
        }

        let file = try await commandLine.importReporter(ReporterCommandLine.fullExport)
        #expect(file.output.contains("Imported 0 reports from 1 file as participant \(label); 10 were already there."), "\(file.output)")
    }

    @Test("a trip New York → London → Berlin: each report is stored in the zone it was lived in, and the JSON export keeps the rest")
    func zonesOfATrip() async throws {
        let commandLine = try await ReporterCommandLine.make()
        _ = try await commandLine.importReporter(ReporterCommandLine.daily)
        try await commandLine.withDatabase { db in
            let responses = try await SurveyResponse.query(on: db).filter(\.$idempotencyKey ~~ [
                "reporter:89CEF029-5629-72FA-4F1C-E845A16FC8E7", "reporter:409F45F1-6306-3283-23EA-05B179467BEA",
                "reporter:6A0F45F5-0D46-57B6-2BBF-0F4816265EDF", "reporter:45FA10E3-45F6-4083-5619-F0D7476AFD17",
                "reporter:58B5CD50-4493-07AF-8891-9783D2AB2BA4", "reporter:2B621F10-C318-3C31-4989-40455EBD9B9B",
            ]).sort(\.$startedAt).all()
            #expect(responses.map(\.timeZone) == [
                "America/New_York", "America/New_York", "Europe/London", "Europe/London", "Europe/Berlin", "Europe/Berlin",
            ], "the last Berlin report has no location: its offset keeps the zone of the one before")
            let oldest = try #require(try await SurveyResponse.query(on: db).sort(\.$startedAt).first())
            #expect(oldest.timeZone == "America/New_York", "a numeric date has no offset: the location decides")
            let participant = try #require(try await Participant.query(on: db).first())
            #expect(participant.timeZone == "Europe/Berlin", "where the latest report was made")

            let survey = try #require(try await Survey.query(on: db).filter(\.$name == "Reporter questions of \(participant.label ?? "")").first())
            let document = try await SurveyCatalog.currentVersion(of: survey, on: db).document
            #expect(document.contains("\"how_happy_are_you\"") && document.contains("\"how_happy_are_you_2\""),
                    "“How happy are you?” as options in 2014 and as a number in 2015: one question per shape")

            let skipped = try #require(try await SurveyResponse.query(on: db)
                .filter(\.$idempotencyKey == "reporter:2B621F10-C318-3C31-4989-40455EBD9B9B").first())
            let statuses = try await Answer.query(on: db).filter(\.$response.$id == skipped.requireID()).all()
            #expect(statuses.first { $0.questionID == "who_are_you_with" }?.status == "NO_ANSWER_SELECTED", "asked and skipped")
            #expect(statuses.first { $0.questionID == "where_are_you" }?.status == "NOT_PRESENTED", "not asked in that report")

            let data = try await exportBytes(.json, study: "city-moods", on: db).data
            let objects = try #require(try JSONDecoder().decode(JSONValue.self, from: data).arrayValue)
            let berlin = try #require(objects.first { $0.objectValue?["timezone"] == .string("Europe/Berlin") }?.objectValue)
            let kept = try #require(berlin["kept_as_is"]?.objectValue)
            #expect(kept["source"] == .string("reporter") && kept["file"] == .string("2015-11-22-reporter-export.json"))
            #expect(kept["snapshot"]?.objectValue?["altitude"]?.objectValue?["floorsAscended"] != nil, "the altitude object, as the file had it")
        }
    }

    @Test("one daily file given by name is imported, skipped questions and all, and comes back equal")
    func singleFile() async throws {
        let commandLine = try await ReporterCommandLine.make()
        let file = ReporterCommandLine.daily.appendingPathComponent("2014-05-21-reporter-export.json")
        let (label, output) = try await commandLine.importReporter(file)
        #expect(output.contains("Imported 2 reports from 1 file as new participant"), "\(output)")
        let exported = try await commandLine.exportReporter(label)
        #expect(try ReporterCommandLine.json(exported.appendingPathComponent(file.lastPathComponent)) == ReporterCommandLine.json(file))
    }
}

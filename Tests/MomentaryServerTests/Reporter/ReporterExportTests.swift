import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryCLI
@testable import MomentaryServer
import Testing

@Suite("Reporter export")
struct ReporterExportTests {
    @Test("momentary export reporter writes one Reporter file per local day with context and answers in Reporter's shapes")
    func exportCommand() async throws {
        let directory = try TestScratch.folder("momentary-reporter")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = Configuration(
            dataDirectory: directory, database: .sqlite(path: directory.appendingPathComponent(Configuration.sqliteFileName).path),
            environmentName: "testing")
        let (alice, bob, photo) = try await AppFactory.withApp(configuration) { app in
            app.logger.logLevel = .warning
            try await app.migrateAtomically()
            let fixture = try await ExportFixture.make(on: app.db)
            let other = try await ExportFixture.make(slug: "elsewhere", on: app.db)
            let alice = try await fixture.participant(timeZone: "America/New_York", label: "BCD23", on: app.db)
            // 03:00 UTC on 10 March is still 9 March in New York.
            let late = try await fixture.response(from: alice, submittedAt: ExportFixture.march(10, 3), on: app.db)
            try await ExportFixture.attachEnvironment(to: late, weather: #"{"tempC": 4.5, "weather": "Clear"}"#, airQuality: nil, pollen: nil, on: app.db)
            let photo = try await PhotoFixture.store(
                Data("not really a jpeg".utf8), at: "photos/alice/one.jpg", participant: alice, response: late.requireID(),
                in: BlobStore(dataDirectory: directory), on: app.db).requireID()
            try await fixture.response(from: alice, submittedAt: ExportFixture.march(9, 14), note: nil, on: app.db)
            try await fixture.response(from: alice, submittedAt: ExportFixture.march(10, 15), context: nil, on: app.db)
            let bob = try await other.participant(on: app.db)
            try await other.response(from: bob, submittedAt: ExportFixture.march(9, 14), on: app.db)
            return (alice, bob, photo)
        }
        let data = ["--data", directory.path]
        let output = directory.appendingPathComponent("reporter")

        let result = await runCommand(["export", "reporter", "--study", "city-moods", "--participant", "bcd23", "--output", output.path] + data)
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.errors.contains("Wrote 2 day files and reporter-export.json with 3 reports and 1 photos"), "\(result.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names == ["2026-03-09-reporter-export.json", "2026-03-10-reporter-export.json", "reporter-export.json"])

        let ninth = try ReporterDay.decode(Data(contentsOf: output.appendingPathComponent(names[0])), fileName: names[0])
        #expect(ninth.snapshots.map(\.date.text) == ["2026-03-09T09:59:35-0400", "2026-03-09T22:59:35-0400"], "local times in order, after the DST change")
        let first = ninth.snapshots[0]
        #expect(first.battery == 0.8 && first.connection == .wifi && first.steps == 120 && first.reportImpetus == .notification)
        #expect(first.audio == ReporterAudio(avg: 48, peak: 63.5))
        #expect(first.location?.latitude == 51.5 && first.location?.horizontalAccuracy == 30)
        #expect(first.responses.map(\.questionPrompt) == [
            "How do you feel, from 0 to 100?", "Who are you with?", "Are you outdoors?", "Where are you?",
            "Anything else? Say it \"briefly\", please.",
        ], "the info box is never presented; the skipped note is its prompt alone, as Reporter writes it")
        #expect(first.responses.last?.answer == nil)
        #expect(first.responses.map(\.answer).prefix(3) == [.number("72.5"), .options(["My partner", "Friends"]), .options(["Yes"])])
        #expect(ninth.snapshots[1].weather == ["tempC": .number(4.5), "weather": .string("Clear")])
        #expect(ninth.snapshots[1].responses.last?.answer == .text("Fine."))
        let listed = try #require(ninth.snapshots[1].photoSet?.photos.first?.objectValue)
        #expect(listed["file"] == .string("photos/\(photo.uuidString.lowercased()).jpg"))
        #expect(try Data(contentsOf: output.appendingPathComponent("photos/\(photo.uuidString.lowercased()).jpg")) == Data("not really a jpeg".utf8),
                "the photo is copied beside the files it is listed in")
        #expect(ninth.snapshots[0].photoSet == nil)

        let tenth = try ReporterDay.decode(Data(contentsOf: output.appendingPathComponent(names[1])), fileName: names[1])
        let full = try ReporterDay.decode(Data(contentsOf: output.appendingPathComponent(names[2])), fileName: names[2])
        #expect(full.snapshots.map(\.date) == ninth.snapshots.map(\.date) + tenth.snapshots.map(\.date), "the full export has every day")
        #expect(tenth.snapshots.count == 1)
        #expect(tenth.snapshots[0].battery == nil && tenth.snapshots[0].location == nil, "a response without context")

        let refusals: [([String], Int32, String)] = [
            (["--participant", bob.uuidString], 1, "is not in the study “city-moods”"),
            (["--participant", "someone"], 2, "--participant must be a participant's label"),
            (["--participant", "ZZZZZ"], 1, "No participant has the label ZZZZZ"),
        ]
        for (arguments, code, message) in refusals {
            let refused = await runCommand(["export", "reporter", "--study", "city-moods", "--output", output.path] + arguments + data)
            #expect(refused.code == code && refused.errors.contains(message), "\(arguments): \(refused.errors)")
        }
        _ = alice
    }
}

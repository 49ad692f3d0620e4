import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryCLI
@testable import MomentaryServer
import Testing

@Suite("Reporter import")
struct ReporterImportTests {
    static let first = #"""
    { "snapshots" : [
      { "date" : "2014-03-02T10:18:38-0500", "uniqueIdentifier" : "A1", "battery" : 0.87, "connection" : 1, "steps" : 412,
        "audio" : { "avg" : -46.5, "peak" : -37.25 }, "reportImpetus" : 2, "sync" : 0, "draft" : 0,
        "location" : { "verticalAccuracy" : 10, "timestamp" : 415466318, "longitude" : -73.9492, "latitude" : 40.7104, "course" : 0,
                       "horizontalAccuracy" : 65, "speed" : -1, "altitude" : 12,
                       "placemark" : { "name" : "451 Lorimer St", "country" : "United States", "locality" : "New York" } },
        "weather" : { "tempC" : -4, "weather" : "Clear" },
        "photoSet" : { "photos" : [ { "{Exif}" : { "PixelXDimension" : 3264 } } ] },
        "responses" : [
          { "questionPrompt" : "What are you doing?", "tokens" : [ "Talking", "Drinking" ] },
          { "questionPrompt" : "Are you working?", "answeredOptions" : [ "No" ] },
          { "questionPrompt" : "Where are you?", "locationResponse" : { "text" : "Welcome to the Johnsons",
              "location" : { "latitude" : 40.7197, "longitude" : -73.9872, "timestamp" : 415466318, "horizontalAccuracy" : 0 },
              "foursquareVenueId" : "3fd66200f964a520dfe31ee3" } },
          { "questionPrompt" : "How many coffees have you had?", "numericResponse" : "2" }
        ] },
      { "date" : "2014-03-02T21:05:00-0500", "uniqueIdentifier" : "A2", "reportImpetus" : 0,
        "responses" : [ { "questionPrompt" : "What are you thinking about?", "textResponse" : "Bed.\nSoon." } ] }
    ] }
    """#
    static let second = #"""
    { "snapshots" : [
      { "date" : "2014-03-03T08:00:00-0500", "uniqueIdentifier" : "B1", "connection" : 0,
        "responses" : [
          { "questionPrompt" : "What are you doing?", "tokens" : [ "Commuting" ] },
          { "questionPrompt" : "Are you working?", "answeredOptions" : [ "Yes" ] },
          { "questionPrompt" : "Which drinks?", "answeredOptions" : [ "Tea", "Coffee" ] }
        ] }
    ] }
    """#

    /// What Momentary keeps of a snapshot: Reporter's photo EXIF, placemark parts other than the
    /// name and the country, a location's course and speed, and a location answer's accuracy,
    /// time and Foursquare venue are dropped; times keep their instant, written at the
    /// participant's offset.
    static func kept(_ snapshot: ReporterSnapshot) -> ReporterSnapshot {
        var kept = snapshot
        kept.date = ReporterDate(snapshot.date.instant, in: TimeZone(identifier: "UTC")!)
        kept.photoSet = nil
        kept.location?.course = nil
        kept.location?.speed = nil
        kept.location?.placemark = snapshot.location?.placemark?.filter { ["name", "country"].contains($0.key) }
        kept.responses = snapshot.responses.map { response in
            guard case .location(let place) = response.answer, let fix = place.location else { return response }
            var kept = response
            kept.answer = .location(ReporterLocationResponse(
                text: place.text, location: ReporterLocation(latitude: fix.latitude, longitude: fix.longitude, timestamp: Date(timeIntervalSince1970: 0))))
            return kept
        }
        return kept
    }

    @Test("a folder of Reporter files becomes a participant whose export gives the files back; a second import adds nothing")
    func roundTrip() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("momentary-reporter-import-\(UUID().uuidString)")
        let input = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.first.utf8).write(to: input.appendingPathComponent("2014-03-02-reporter-export.json"))
        try Data(Self.second.utf8).write(to: input.appendingPathComponent("2014-03-03-reporter-export.json"))
        try Data("not Reporter's".utf8).write(to: input.appendingPathComponent("notes.txt"))
        let configuration = Configuration(
            dataDirectory: directory, database: .sqlite(path: directory.appendingPathComponent(Configuration.sqliteFileName).path),
            environmentName: "testing")
        try await AppFactory.withApp(configuration) { app in
            app.logger.logLevel = .warning
            try await app.migrateAtomically()
            _ = try await ExportFixture.make(on: app.db)
        }
        let data = ["--data", directory.path]

        let imported = await runCommand(["import", "reporter", "--study", "city-moods", input.path] + data)
        #expect(imported.code == 0, "\(imported.errors)")
        #expect(imported.output.contains("Imported 3 reports from 2 files as new participant"), "\(imported.output)")
        let label = String(try #require(imported.output.split(separator: " ").last).filter { $0.isLetter || $0.isNumber })
        #expect(label.count == 5)

        func counts() async throws -> [Int] {
            try await AppFactory.withApp(configuration) { app in
                [
                    try await Participant.query(on: app.db).count(), try await SurveyResponse.query(on: app.db).count(),
                    try await Answer.query(on: app.db).count(), try await SurveyVersion.query(on: app.db).count(),
                ]
            }
        }
        let before = try await counts()
        let again = await runCommand(["import", "reporter", "--study", "city-moods", input.path] + data)
        #expect(again.code == 0 && again.output.contains("Imported 0 reports from 2 files as participant \(label); 3 were already there."), "\(again.output)")
        #expect(try await counts() == before, "importing twice changes nothing")

        let output = directory.appendingPathComponent("out")
        let exported = await runCommand(["export", "reporter", "--study", "city-moods", "--participant", label, "--output", output.path] + data)
        #expect(exported.code == 0, "\(exported.errors)")
        for name in ["2014-03-02-reporter-export.json", "2014-03-03-reporter-export.json"] {
            let original = try ReporterDay.decode(Data(contentsOf: input.appendingPathComponent(name)), fileName: name)
            let back = try ReporterDay.decode(Data(contentsOf: output.appendingPathComponent(name)), fileName: name)
            #expect(back.snapshots.map(Self.kept) == original.snapshots.map(Self.kept), "\(name)")
            #expect(back.snapshots.map(\.date.text) == original.snapshots.map(\.date.text), "the study's zone is New York, as the files")
        }
    }

    @Test("a folder with unreadable files is refused file by file and field by field, and nothing is stored")
    func refusals() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("momentary-reporter-refused-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            try Data(Self.first.utf8).write(to: directory.appendingPathComponent("2014-03-02-reporter-export.json"))
            try Data(#"{"snapshots": [{"date": "2014-03-03T08:00:00-0500", "connection": 5}]}"#.utf8)
                .write(to: directory.appendingPathComponent("2014-03-03-reporter-export.json"))
            try Data("{".utf8).write(to: directory.appendingPathComponent("2014-03-04-reporter-export.json"))
            let refusal = await #expect(throws: ReporterImporter.Refusal.self) {
                try await ReporterImporter.importFolder(directory, into: fixture.study, on: app.db)
            }
            #expect(refusal?.problems.count == 2)
            #expect(refusal?.problems.first?.hasPrefix("2014-03-03-reporter-export.json: snapshots[0].connection") == true, "\(refusal?.problems ?? [])")
            #expect(refusal?.problems.last?.hasPrefix("2014-03-04-reporter-export.json:") == true)

            try FileManager.default.removeItem(at: directory.appendingPathComponent("2014-03-04-reporter-export.json"))
            try Data(#"{"snapshots": [{"date": 1, "responses": [{"questionPrompt": "Are you working?", "textResponse": "no"}]}]}"#.utf8)
                .write(to: directory.appendingPathComponent("2014-03-03-reporter-export.json"))
            let conflict = await #expect(throws: ReporterImporter.Refusal.self) {
                try await ReporterImporter.importFolder(directory, into: fixture.study, on: app.db)
            }
            #expect(conflict?.problems.first?.contains("“Are you working?”") == true)
            #expect(try await Participant.query(on: app.db).count() == 0)
            #expect(try await Survey.query(on: app.db).count() == 1, "only the fixture's survey")

            let empty = directory.appendingPathComponent("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let none = await #expect(throws: ReporterImporter.Refusal.self) {
                try await ReporterImporter.importFolder(empty, into: fixture.study, on: app.db)
            }
            #expect(none?.problems.first?.contains("holds no Reporter files") == true)
        }
    }
}

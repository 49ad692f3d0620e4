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
      { "date" : "2014-03-03T08:00:00-0500", "uniqueIdentifier" : "B1", "connection" : 0, "battery" : -1, "photoSet" : { "uniqueIdentifier" : "P1" },
        "responses" : [
          { "questionPrompt" : "What are you doing?", "tokens" : [ "Commuting" ] },
          { "questionPrompt" : "Are you working?", "answeredOptions" : [ "Yes" ] },
          { "questionPrompt" : "Which drinks?", "answeredOptions" : [ "Tea", "Coffee" ] }
        ] }
    ] }
    """#

    @Test("a folder of Reporter files becomes a participant whose export gives the files back; a second import adds nothing")
    func roundTrip() async throws {
        let commandLine = try await ReporterCommandLine.make()
        let input = try TestScratch.folder("momentary-reporter-in")
        try Data(Self.first.utf8).write(to: input.appendingPathComponent("2014-03-02-reporter-export.json"))
        try Data(Self.second.utf8).write(to: input.appendingPathComponent("2014-03-03-reporter-export.json"))
        try Data("not Reporter's".utf8).write(to: input.appendingPathComponent("notes.txt"))

        let (label, output) = try await commandLine.importReporter(input)
        #expect(output.contains("Imported 3 reports from 2 files as new participant"), "\(output)")
        #expect(label.count == 5)

        func counts() async throws -> [Int] {
            try await commandLine.withDatabase { db in
                [
                    try await Participant.query(on: db).count(), try await SurveyResponse.query(on: db).count(),
                    try await Answer.query(on: db).count(), try await SurveyVersion.query(on: db).count(),
                ]
            }
        }
        let before = try await counts()
        let again = try await commandLine.importReporter(input)
        #expect(again.output.contains("Imported 0 reports from 2 files as participant \(label); 3 were already there."), "\(again.output)")
        #expect(try await counts() == before, "importing twice changes nothing")

        let exported = try await commandLine.exportReporter(label)
        for name in ["2014-03-02-reporter-export.json", "2014-03-03-reporter-export.json"] {
            #expect(try ReporterCommandLine.json(exported.appendingPathComponent(name)) == ReporterCommandLine.json(input.appendingPathComponent(name)),
                    "\(name): photo EXIF, placemark, course, speed, state flags and the location answer's own fix are all kept")
        }
    }

    @Test("files that cannot be read are refused file by file and field by field, and nothing is stored")
    func refusals() async throws {
        let directory = try TestScratch.folder("momentary-reporter-refused")
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            func refused(_ path: URL) async -> [String] {
                let refusal = await #expect(throws: ReporterImporter.Refusal.self) {
                    try await ReporterImporter.importFiles(at: path, into: fixture.study, on: app.db)
                }
                return refusal?.problems ?? []
            }
            try Data(Self.first.utf8).write(to: directory.appendingPathComponent("2014-03-02-reporter-export.json"))
            try Data(#"{"snapshots": [{"date": "2014-03-03T08:00:00-0500", "connection": 5}]}"#.utf8)
                .write(to: directory.appendingPathComponent("2014-03-03-reporter-export.json"))
            try Data("{".utf8).write(to: directory.appendingPathComponent("2014-03-04-reporter-export.json"))
            let unreadable = await refused(directory)
            #expect(unreadable.count == 2)
            #expect(unreadable.first?.hasPrefix("2014-03-03-reporter-export.json: snapshots[0].connection") == true, "\(unreadable)")
            #expect(unreadable.last?.hasPrefix("2014-03-04-reporter-export.json:") == true)

            try FileManager.default.removeItem(at: directory.appendingPathComponent("2014-03-04-reporter-export.json"))
            try Data(#"{"snapshots": [{"date": 1, "responses": [{"questionPrompt": "What are you doing?", "tokens": [{"text": " "}]}]}]}"#.utf8)
                .write(to: directory.appendingPathComponent("2014-03-03-reporter-export.json"))
            let answer = await refused(directory)
            #expect(answer == ["2014-03-03-reporter-export.json: snapshots[0].responses[0]: Question “what_are_you_doing” does not accept an empty token."], "\(answer)")

            try Data(#"{"snapshots": [{"date": 1, "uniqueIdentifier": "A1", "responses": []}]}"#.utf8)
                .write(to: directory.appendingPathComponent("2014-03-03-reporter-export.json"))
            let twice = await refused(directory)
            #expect(twice.first?.contains("2014-03-03-reporter-export.json: snapshots[0] is a different report with the identifier “A1” of 2014-03-02-reporter-export.json: snapshots[0]") == true, "\(twice)")

            let file = directory.appendingPathComponent("2014-03-03-reporter-export.json")
            try Data(#"{"snapshots": [{"date": 1, "location": {"latitude": 40, "longitude": -73, "timestamp": "yesterday"}}]}"#.utf8).write(to: file)
            let single = await refused(file)
            #expect(single.first?.hasPrefix("2014-03-03-reporter-export.json: snapshots[0].location.timestamp") == true, "\(single)")
            #expect(try await Participant.query(on: app.db).count() == 0)
            #expect(try await Survey.query(on: app.db).count() == 1, "only the fixture's survey")

            let empty = try TestScratch.folder("momentary-reporter-empty")
            #expect(await refused(empty).first?.contains("holds no Reporter files") == true)
            #expect(await refused(empty.appendingPathComponent("missing.json")).first?.contains("does not exist") == true)
        }
    }

    @Test("a prompt answered in two shapes is no reason to refuse: each shape is its own question with that prompt")
    func shapeChange() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let file = try TestScratch.folder("momentary-reporter-shapes").appendingPathComponent("reporter-export.json")
            try Data(#"""
                {"snapshots": [
                  {"date": "2014-05-21T08:31:05-0400", "responses": [{"questionPrompt": "How happy are you?", "answeredOptions": ["Content"]}]},
                  {"date": "2015-11-20T08:05:31-0500", "responses": [{"questionPrompt": "How happy are you?", "numericResponse": 7}]}
                ]}
                """#.utf8).write(to: file)
            let summary = try await ReporterImporter.importFiles(at: file, into: fixture.study, on: app.db)
            #expect(summary.added == 2 && summary.files == 1)
            let values = try await Answer.query(on: app.db).filter(\.$status == "answered").sort(\.$questionID).all().map { "\($0.questionID)=\($0.value ?? "")" }
            #expect(values == [#"how_happy_are_you="Content""#, "how_happy_are_you_2=7"], "\(values)")
        }
    }
}

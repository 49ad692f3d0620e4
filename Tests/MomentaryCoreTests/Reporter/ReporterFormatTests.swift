import Foundation
import Testing
@testable import MomentaryCore

@Suite("Reporter's daily export files")
struct ReporterFormatTests {
    /// A day in the seed's shapes: one snapshot with every passive metric and every answer shape.
    static let sampleDay = #"""
    {
      "snapshots" : [
        {
          "battery" : 0.87,
          "connection" : 1,
          "steps" : 412,
          "audio" : { "avg" : -46.5, "peak" : -37.25 },
          "reportImpetus" : 2,
          "date" : "2014-03-02T10:18:38-0500",
          "uniqueIdentifier" : "6B3E3B5C-1D0F-4E47-9A9C-0A6C0B6D6F11",
          "sync" : 0, "draft" : 0, "background" : 0, "dwellStatus" : 0, "sectionIdentifier" : "2014-03-02",
          "location" : {
            "verticalAccuracy" : 10, "timestamp" : 413471577.349213, "longitude" : -73.94920271473413,
            "latitude" : 40.71048222608454, "course" : 0, "horizontalAccuracy" : 65, "speed" : -1,
            "placemark" : { "locality" : "New York", "country" : "United States", "postalCode" : "11206", "name" : "451 Lorimer St" }
          },
          "weather" : { "tempC" : -4, "relativeHumidity" : "65%", "weather" : "Clear", "windKPH" : 6.4 },
          "photoSet" : { "photos" : [ { "{Exif}" : { "PixelXDimension" : 3264 } } ] },
          "responses" : [
            { "questionPrompt" : "What are you doing?", "tokens" : [ "Talking", "Drinking" ] },
            { "questionPrompt" : "Are you working?", "answeredOptions" : [ "No" ] },
            { "questionPrompt" : "Where are you?", "locationResponse" : {
                "text" : "Welcome to the Johnsons",
                "location" : { "verticalAccuracy" : -1, "timestamp" : 413520066.367849, "longitude" : -73.98724124700989,
                               "latitude" : 40.71978727764392, "course" : 0, "horizontalAccuracy" : 0, "speed" : -1 },
                "foursquareVenueId" : "3fd66200f964a520dfe31ee3" } },
            { "numericResponse" : "0", "questionPrompt" : "How many coffees have you had?" },
            { "questionPrompt" : "What are you thinking about?", "textResponse" : "I'm likely too old for this bar." }
          ]
        },
        { "date" : 412523198.401702, "responses" : [] }
      ]
    }
    """#

    @Test("a day in the seed's shapes is read: metrics, time with its offset, every answer shape")
    func readsSeedShapes() throws {
        let day = try ReporterDay.decode(Data(Self.sampleDay.utf8), fileName: "2014-03-02-reporter-export.json")
        #expect(day.snapshots.count == 2)
        let snapshot = day.snapshots[0]
        #expect(snapshot.battery == 0.87)
        #expect(snapshot.connection == .wifi)
        #expect(snapshot.reportImpetus == .notification)
        #expect(snapshot.audio == ReporterAudio(avg: -46.5, peak: -37.25))
        #expect(snapshot.date.utcOffsetSeconds == -5 * 3600)
        #expect(snapshot.date.instant == Date(timeIntervalSince1970: 1_393_773_518), "10:18:38 at −05:00 is 15:18:38 UTC")
        #expect(snapshot.location?.placemark?["locality"] == .string("New York"))
        #expect(snapshot.location?.fix.verticalAccuracy == 10)
        #expect(snapshot.weather?["relativeHumidity"] == .string("65%"))
        #expect(snapshot.responses.map(\.answer) == [
            .tokens(["Talking", "Drinking"]), .options(["No"]),
            .location(ReporterLocationResponse(
                text: "Welcome to the Johnsons",
                location: ReporterLocation(
                    latitude: 40.71978727764392, longitude: -73.98724124700989, horizontalAccuracy: 0, verticalAccuracy: -1,
                    course: 0, speed: -1, timestamp: ReporterDate(referenceSeconds: 413520066.367849)),
                foursquareVenueId: "3fd66200f964a520dfe31ee3")),
            .number("0"), .text("I'm likely too old for this bar."),
        ])
        if case .location(let place) = snapshot.responses[2].answer {
            #expect(place.location?.fix.verticalAccuracy == nil, "Core Location's −1 means not known")
        }
        #expect(day.snapshots[1].date.utcOffsetSeconds == nil)
        #expect(day.snapshots[1].date.instant == Date(timeIntervalSinceReferenceDate: 412523198.401702))
    }

    /// A 2015 day: `questions`, identifiers everywhere, token and note objects, an ISO location
    /// time, a number written as a number, a skipped question.
    static let laterDay = #"""
    { "questions" : [ { "questionType" : 0, "prompt" : "What are you doing?", "uniqueIdentifier" : "Q1" } ],
      "snapshots" : [ { "date" : "2015-11-21T09:12:40+0000", "uniqueIdentifier" : "S1", "battery" : -1,
        "location" : { "latitude" : 51.5246, "longitude" : -0.0994, "timestamp" : "2015-11-21T09:12:31+0000", "uniqueIdentifier" : "L1" },
        "responses" : [
          { "questionPrompt" : "What are you doing?", "uniqueIdentifier" : "R1",
            "tokens" : [ { "text" : "Working", "uniqueIdentifier" : "T1" }, { "text" : "Coffee", "uniqueIdentifier" : "T2" } ] },
          { "questionPrompt" : "What did you learn today?", "textResponses" : [ { "text" : "One", "uniqueIdentifier" : "N1" }, { "text" : "Two" } ] },
          { "questionPrompt" : "How many coffees have you had?", "numericResponse" : 2.5 },
          { "questionPrompt" : "Who are you with?", "uniqueIdentifier" : "R4" }
        ] } ] }
    """#

    @Test("the shapes of later versions are read: token and note objects, ISO location times, numbers as numbers, skipped questions")
    func readsLaterShapes() throws {
        let day = try ReporterDay.decode(Data(Self.laterDay.utf8), fileName: "2015-11-21-reporter-export.json")
        #expect(day.questions == [ReporterQuestion(prompt: "What are you doing?", questionType: 0)])
        let snapshot = try #require(day.snapshots.first)
        #expect(snapshot.battery == nil, "iOS's −1: not known")
        #expect(snapshot.location?.timestamp.text == "2015-11-21T09:12:31+0000")
        #expect(snapshot.location?.date == Date(timeIntervalSince1970: 1_448_097_151))
        #expect(snapshot.responses.map(\.answer) == [.tokens(["Working", "Coffee"]), .text("One\nTwo"), .number("2.5"), nil])
        #expect(snapshot.responses.map(\.uniqueIdentifier) == ["R1", nil, nil, "R4"])
    }

    @Test("writing then reading gives the same day, and times keep the form and offset they were read in")
    func roundTrip() throws {
        let day = try ReporterDay.decode(Data(Self.sampleDay.utf8), fileName: "a")
        let written = try day.encoded()
        #expect(try ReporterDay.decode(written, fileName: "b") == day)
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains(#""date" : "2014-03-02T10:18:38-0500""#))
        #expect(text.contains(#""date" : 412523198.401702"#))
        #expect(text.contains(#""numericResponse" : "0""#))
        #expect(!text.contains("sectionIdentifier"), "Reporter's state flags are not written")
    }

    @Test("times are written at the zone's offset for that instant, across a DST change and with half-hour offsets", arguments: [
        ("America/New_York", 1_394_258_400.9, "2014-03-08T01:00:00-0500"),
        ("America/New_York", 1_394_348_400, "2014-03-09T03:00:00-0400"),
        ("Asia/Kolkata", 1_394_344_800, "2014-03-09T11:30:00+0530"),
        ("America/St_Johns", 1_394_344_800, "2014-03-09T03:30:00-0230"),
        ("UTC", -1, "1969-12-31T23:59:59+0000"),
    ])
    func writesOffsets(zone: String, seconds: Double, expected: String) throws {
        let date = ReporterDate(Date(timeIntervalSince1970: seconds), in: try #require(TimeZone(identifier: zone)))
        #expect(date.text == expected)
        #expect(ReporterDate.parse(expected) == date)
    }

    @Test("time texts that are not Reporter's form are refused", arguments: [
        "2014-03-02 10:18:38-0500", "2014-03-02T10:18:38", "2014-03-02T25:18:38-0500", "2014-02-30T10:18:38-0500",
        "2014-03-02T10:18:38-05", "2014-03-02T10:18:38+2500", "yesterday",
    ])
    func refusesOtherTimes(text: String) {
        #expect(ReporterDate.parse(text) == nil)
    }

    @Test("a file that cannot be read names the file and the field", arguments: [
        (#"{"snapshots": [{"date": "2014-03-02T10:18:38-0500", "reportImpetus": 7}]}"#, "snapshots[0].reportImpetus"),
        (#"{"snapshots": [{"date": "2014-03-02T10:18:38-0500", "connection": 3}]}"#, "snapshots[0].connection"),
        (#"{"snapshots": [{"date": "2014-03-02T10:18:38-0500", "battery": 1.5}]}"#, "snapshots[0].battery"),
        (#"{"snapshots": [{"battery": 0.5}]}"#, "snapshots[0].date"),
        (#"{"snapshots": [{"date": "soon"}]}"#, "snapshots[0].date"),
        (#"{"snapshots": [{"date": 1, "responses": [{"tokens": ["a"]}]}]}"#, "snapshots[0].responses[0].questionPrompt"),
        (#"{"snapshots": [{"date": 1, "responses": [{"questionPrompt": "Q", "tokens": [{"uniqueIdentifier": "A"}]}]}]}"#, "snapshots[0].responses[0].tokens[0].text"),
        (#"{"snapshots": [{"date": 1, "responses": [{"questionPrompt": "Q", "textResponses": [3]}]}]}"#, "snapshots[0].responses[0].textResponses[0]"),
        (#"{"snapshots": [{"date": 1, "location": {"latitude": 1, "longitude": 0, "timestamp": "last week"}}]}"#, "snapshots[0].location.timestamp"),
        (#"{"snapshots": [{"date": 1, "responses": [{"questionPrompt": "Q", "tokens": ["a"], "textResponse": "b"}]}]}"#, "snapshots[0].responses[0].questionPrompt"),
        (#"{"snapshots": [{"date": 1, "responses": [{"questionPrompt": "Q", "numericResponse": "many"}]}]}"#, "snapshots[0].responses[0].numericResponse"),
        (#"{"snapshots": [{"date": 1, "responses": [{"questionPrompt": "Q", "tokens": "a"}]}]}"#, "snapshots[0].responses[0].tokens"),
        (#"{"snapshots": [{"date": 1, "location": {"latitude": 91, "longitude": 0, "timestamp": 1}}]}"#, "snapshots[0].location.latitude"),
        (#"{"reports": []}"#, "snapshots"),
        ("not json", ""),
    ])
    func namesTheField(json: String, field: String) {
        #expect {
            _ = try ReporterDay.decode(Data(json.utf8), fileName: "2014-03-02-reporter-export.json")
        } throws: { error in
            guard let error = error as? ReporterFormatError else { return false }
            return error.fileName == "2014-03-02-reporter-export.json" && error.field == field && !error.message.isEmpty
        }
    }

    @Test("file names are Reporter's: one a local day")
    func fileNames() throws {
        let day = try #require(LocalDate(year: 2014, month: 2, day: 28))
        #expect(ReporterDay.fileName(for: day) == "2014-02-28-reporter-export.json")
        #expect(ReporterDay.day(fromFileName: "2014-02-28-reporter-export.json") == day)
        for name in ["2014-02-30-reporter-export.json", "2014-2-28-reporter-export.json", "2014-02-28.json", "notes.txt"] {
            #expect(ReporterDay.day(fromFileName: name) == nil, "\(name)")
        }
    }
}

import Foundation
@testable import MomentaryServer
import Testing
import ZIPFoundation

@Suite("Exports: the map and the calendar")
struct ExportPlacesTests {
    @Test("KMZ has a placemark per located response named by its participant; iCalendar an event per response")
    func mapAndCalendar() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(label: "ALICE", on: app.db)
            let base = Date(timeIntervalSince1970: 1_772_400_000)
            try await fixture.response(from: alice, submittedAt: base, mood: 80, note: "Tea; then \"more\", tea", on: app.db)
            try await fixture.response(from: alice, submittedAt: base.addingTimeInterval(3600), mood: 40, context: nil, on: app.db)

            let kmz = try await exportBytes(.kmz, study: "city-moods", on: app.db)
            #expect(kmz.summary.responses == 2 && kmz.summary.rows == 1, "one of the two has a location")
            let archive = try Archive(data: kmz.data, accessMode: .read)
            var kml = Data()
            _ = try archive.extract(try #require(archive["doc.kml"])) { kml.append($0) }
            let text = String(decoding: kml, as: UTF8.self)
            #expect(text.components(separatedBy: "<Placemark>").count == 2)
            #expect(text.contains("<name>ALICE · ") && text.contains("<coordinates>-0.12,51.5,20.0</coordinates>"))
            #expect(text.contains("How do you feel, from 0 to 100?: 80") && text.contains("Tea; then &quot;more&quot;, tea"))

            let calendar = try await exportText(.ics, study: "city-moods", on: app.db)
            #expect(calendar.hasPrefix("BEGIN:VCALENDAR\r\n") && calendar.hasSuffix("END:VCALENDAR\r\n"))
            #expect(calendar.components(separatedBy: "BEGIN:VEVENT").count == 3)
            #expect(calendar.contains("DTSTART:20260301T211935Z"), "the first response began 25 s before it was submitted")
            let unfolded = calendar.replacingOccurrences(of: "\r\n ", with: "")
            #expect(unfolded.contains(#"Tea\; then "more"\, tea"#), "semicolons and commas are escaped in text")
            #expect(calendar.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 }, "lines are folded at 75 octets")
        }
    }
}

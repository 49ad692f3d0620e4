import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

/// Every moment keeps its zone: a participant who moves changes the local times of what comes
/// after, never of what came before (M037).
@Suite("Exports: each response and beep in the zone it was lived in")
struct ExportZoneTests {
    /// The local wall-clock text the exports write (`2026-03-02T23:01:00.000`) of `instant` in `zone`.
    static func local(_ instant: Date, _ zone: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS"
        return formatter.string(from: instant)
    }

    @Test("an answer given in Berlin stays in Berlin in every export after the participant moves to London")
    func zoneChangeKeepsThePast() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            var request = APIFixture.registration()
            request.timezone = "Europe/Berlin"
            let (client, registration) = try await APIFixture.register(on: server, request)

            // Whole seconds, so local texts compare exactly.
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            var inBerlin = APIFixture.submission(seed: 3)
            inBerlin.startedAt = now.addingTimeInterval(-3_600)
            inBerlin.submittedAt = now.addingTimeInterval(-3_570)
            let berlinReceipt = try await client.submitResponse(inBerlin)

            let basic = Data("\(registration.participantID.uuidString):\(registration.secret)".utf8).base64EncodedString()
            try await server.app.testing().test(
                .PUT, "api/v1/settings", headers: ["Authorization": "Basic \(basic)", "Content-Type": "application/json"],
                body: .init(string: #"{"beeps_per_day": 2, "start": "08:00", "end": "22:00", "timezone": "Europe/London"}"#)
            ) { response in
                #expect(response.status == .ok)
            }
            var inLondon = APIFixture.submission(seed: 4)
            inLondon.startedAt = now.addingTimeInterval(-60)
            inLondon.submittedAt = now.addingTimeInterval(-30)
            let londonReceipt = try await client.submitResponse(inLondon)

            let berlinID = berlinReceipt.responseID.uuidString.lowercased()
            let londonID = londonReceipt.responseID.uuidString.lowercased()
            let expected = [
                berlinID: ("Europe/Berlin", Self.local(inBerlin.startedAt, "Europe/Berlin")),
                londonID: ("Europe/London", Self.local(inLondon.startedAt, "Europe/London")),
            ]
            #expect(expected[berlinID]?.1 != Self.local(inBerlin.startedAt, "Europe/London"), "the two zones differ by an hour")

            // Long and wide CSV: each response row in its own zone.
            for format in [ExportFormat.long, .wide] {
                let rows = try CSVReader.rows(try await exportText(format, study: "demo", on: server.db)).rows
                for (id, (zone, startedLocal)) in expected {
                    let mine = rows.filter { $0["response_id"] == id }
                    #expect(!mine.isEmpty, "\(format): no rows of \(id)")
                    #expect(mine.allSatisfy { $0["timezone"] == zone && $0["started_at_local"] == startedLocal }, "\(format): \(mine.first ?? [:])")
                }
            }

            // JSON.
            let json = try await exportBytes(.json, study: "demo", on: server.db).data
            let objects = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Any]])
            for (id, (zone, startedLocal)) in expected {
                let object = try #require(objects.first { $0["response_id"] as? String == id })
                #expect(object["timezone"] as? String == zone)
                #expect(object["started_at_local"] as? String == startedLocal)
            }

            // The workbook's responses sheet.
            let workbook = try XLSXInspection(data: try await exportBytes(.xlsx, study: "demo", on: server.db).data)
            let sheet = try workbook.rows(of: "Responses")
            let header = try #require(sheet.first)
            let idColumn = try #require(header.firstIndex(of: "response_id"))
            let zoneColumn = try #require(header.firstIndex(of: "timezone"))
            let startedColumn = try #require(header.firstIndex(of: "started_at_local"))
            for (id, started) in [(berlinID, inBerlin.startedAt), (londonID, inLondon.startedAt)] {
                let zone = try #require(expected[id]?.0)
                let row = try #require(sheet.first { $0.count > idColumn && $0[idColumn] == id })
                #expect(row[zoneColumn] == zone)
                // A workbook's times are serial days of the wall clock (days since 1899-12-30).
                let wallClock = started.timeIntervalSince1970 + Double(TimeZone(identifier: zone)!.secondsFromGMT(for: started))
                let serial = try #require(Double(row[startedColumn]))
                #expect(abs(serial - (wallClock / 86_400 + 25_569)) < 1e-6, "\(zone): \(serial)")
            }

            // Beeps planned before the move keep Berlin; those planned after it are London's.
            let beeps = try await Beep.query(on: server.db).filter(\.$participant.$id == registration.participantID).all()
            #expect(beeps.contains { $0.timeZone == "Europe/Berlin" }, "beeps planned at registration")
            #expect(beeps.contains { $0.timeZone == "Europe/London" }, "beeps replanned after the move")
            let beepRows = try CSVReader.rows(try await exportText(.beeps, study: "demo", on: server.db)).rows
            for beep in beeps {
                let row = try #require(beepRows.first { $0["beep_id"] == beep.id?.uuidString.lowercased() })
                #expect(row["timezone"] == beep.timeZone)
                #expect(row["scheduled_at_local"] == Self.local(beep.scheduledAt, beep.timeZone ?? ""))
            }
        }
    }

    @Test("rows from before M037 are given the participant's zone when the migration runs")
    func backfill() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(timeZone: "Asia/Tokyo", on: app.db)
            let response = try await fixture.response(from: alice, submittedAt: ExportFixture.march(2, 9), beepSentBefore: 60, on: app.db)
            let sql = app.db.sql
            try await sql.raw("UPDATE responses SET timezone = NULL").run()
            try await sql.raw("UPDATE beeps SET timezone = NULL").run()
            try await M037_AddMomentZones.backfill(on: app.db)
            let stored = try #require(try await SurveyResponse.find(response.requireID(), on: app.db))
            #expect(stored.timeZone == "Asia/Tokyo")
            let beep = try #require(try await Beep.find(try #require(stored.$beep.id), on: app.db))
            #expect(beep.timeZone == "Asia/Tokyo")
        }
    }
}

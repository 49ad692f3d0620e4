import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

/// Who chooses the hours, through the API: the same rule (`StudySignallingRules.participantSettings`)
/// the website's form and `studies import` check the study's side of.
@Suite("Participant API: hours fixed or bounded by the study")
struct HoursPolicyAPITests {
    static func demo(_ db: any Database, _ change: (Study) -> Void) async throws {
        try await APIFixture.seedDemo(on: db)
        let study = try #require(try await Study.query(on: db).filter(\.$slug == "demo").first())
        change(study)
        try await study.save(on: db)
    }

    func errorDetail(_ response: TestingHTTPResponse) throws -> APIErrorBody.Detail {
        try WireCoding.makeDecoder().decode(APIErrorBody.self, from: Data(response.body.readableBytesView)).error
    }

    /// A whole registration (with the demo's registration answers) asking for these settings, as JSON.
    static func registration(_ settings: String) throws -> String {
        let request = try WireCoding.makeEncoder().encode(APIFixture.registration())
        var object = try #require(try JSONSerialization.jsonObject(with: request) as? [String: Any])
        object["settings"] = try JSONSerialization.jsonObject(with: Data(settings.utf8))
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test("fixed hours: registration needs no hours and gets the study's; other hours are refused by field; the app is told")
    func fixedHours() async throws {
        try await withRunningServer { server in
            try await Self.demo(server.db) { study in
                study.hoursPolicy = HoursPolicy.fixed.rawValue
                study.defaultStartMinutes = 9 * 60
                study.defaultEndMinutes = 21 * 60
                study.maxBeepsPerDay = 6
                study.minGapMinutes = 30
            }
            let info = try await server.client().studyInfo(slug: "demo")
            #expect(info.hoursPolicy == .fixed)
            #expect(info.defaultSettings.start == TimeOfDay("09:00") && info.defaultSettings.end == TimeOfDay("21:00"))

            let tester = try server.app.testing()
            try await tester.test(.POST, "api/v1/participants", headers: ["Content-Type": "application/json"],
                                  body: .init(string: try Self.registration(#"{"beeps_per_day":6,"start":"08:00","end":"21:00"}"#))) { response in
                #expect(response.status == .unprocessableEntity)
                let detail = try errorDetail(response)
                #expect(detail.field == "settings.start", "\(detail)")
                #expect(detail.message.contains("09:00–21:00"), "\(detail)")
            }
            #expect(try await Participant.query(on: server.db).count() == 0, "a refused registration stores nothing")

            try await tester.test(.POST, "api/v1/participants", headers: ["Content-Type": "application/json"],
                                  body: .init(string: try Self.registration(#"{"beeps_per_day":6}"#))) { response in
                #expect(response.status == .created, "\(response.body.string)")
            }
            let participant = try #require(try await Participant.query(on: server.db).first())
            #expect(participant.signalStartMinutes == 9 * 60 && participant.signalEndMinutes == 21 * 60)
            #expect(participant.beepsPerDay == 6)
        }
    }

    @Test("bounded hours: hours outside the bounds or shorter than the shortest window are refused, others kept")
    func boundedHours() async throws {
        try await withRunningServer { server in
            try await Self.demo(server.db) { study in
                study.hoursPolicy = HoursPolicy.bounded.rawValue
                study.earliestStartMinutes = 7 * 60
                study.latestEndMinutes = 23 * 60
                study.minimumWindowMinutes = 8 * 60
                study.defaultStartMinutes = 9 * 60
                study.defaultEndMinutes = 21 * 60
            }
            #expect(try await Study.query(on: server.db).first()?.signallingRules.problems().isEmpty == true)
            let info = try await server.client().studyInfo(slug: "demo")
            #expect(info.hoursPolicy == .bounded && info.earliestStart == TimeOfDay("07:00") && info.minimumWindowMinutes == 480)

            let tester = try server.app.testing()
            for (settings, field) in [
                (#"{"beeps_per_day":2,"start":"06:00","end":"20:00"}"#, "settings.start"),
                (#"{"beeps_per_day":2,"start":"09:00","end":"12:00"}"#, "settings"),
                (#"{"beeps_per_day":2}"#, "settings.start"),
            ] {
                try await tester.test(.POST, "api/v1/participants", headers: ["Content-Type": "application/json"],
                                      body: .init(string: try Self.registration(settings))) { response in
                    #expect(response.status == .unprocessableEntity, "\(settings)")
                    let detail = try errorDetail(response)
                    #expect(detail.field?.hasPrefix(field) == true, "\(settings): \(detail)")
                }
            }
            #expect(try await Participant.query(on: server.db).count() == 0)
            var accepted = APIFixture.registration()
            accepted.settings = SignallingSettingsRequest(beepsPerDay: 2, start: TimeOfDay("08:00"), end: TimeOfDay("20:00"))
            let (client, _) = try await APIFixture.register(on: server, accepted)
            // A settings change is held to the same bounds.
            do {
                try await client.updateSettings(SignallingSettings(beepsPerDay: 2, start: TimeOfDay("05:00")!, end: TimeOfDay("20:00")!))
                Issue.record("hours before the earliest start were saved")
            } catch {
                #expect(error.httpStatus == 422, "\(error)")
            }
            let participant = try #require(try await Participant.query(on: server.db).first())
            #expect(participant.signalStartMinutes == 8 * 60, "unchanged")
        }
    }
}

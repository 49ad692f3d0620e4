import Foundation
import Testing
@testable import MomentaryCore

@Suite("Signalling settings validation")
struct SignallingSettingsValidationTests {
    func settings(_ beeps: Int, _ start: String, _ end: String) -> SignallingSettings {
        SignallingSettings(beepsPerDay: beeps, start: TimeOfDay(start)!, end: TimeOfDay(end)!)
    }

    func message(_ settings: SignallingSettings, gap: Int = 60) -> String? {
        do {
            try settings.validate(minimumGapMinutes: gap)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("The defaults and night shifts are accepted")
    func accepted() {
        #expect(message(.standard) == nil)
        #expect(message(settings(5, "22:00", "06:00")) == nil)
        #expect(message(settings(1, "23:45", "00:00"), gap: 5) == nil)
    }

    @Test("Beeps that do not fit are rejected with a message naming count, gap and hours")
    func doesNotFit() throws {
        let text = try #require(message(settings(3, "08:00", "12:00"), gap: 90))
        #expect(text.contains("3 beeps a day with at least 90 minutes between them do not fit in 3 h 50 min"))
        #expect(text.contains("08:00–12:00"))
        #expect(text.contains("fewer beeps, longer hours or a shorter gap"))
        // The same hours hold 3 beeps 76 minutes apart (228 ≤ 230 minutes).
        #expect(message(settings(3, "08:00", "12:00"), gap: 76) == nil)
    }

    @Test("Other rules each give their own message")
    func otherRules() throws {
        #expect(try #require(message(settings(0, "08:00", "22:00"))).contains("1 to 24, not 0"))
        #expect(try #require(message(settings(25, "08:00", "22:00"), gap: 10)).contains("1 to 24, not 25"))
        #expect(message(settings(24, "08:00", "22:00"), gap: 30) == nil)
        #expect(try #require(message(settings(2, "08:10", "22:00"))).contains("start time 08:10 is not on a quarter hour"))
        #expect(try #require(message(settings(2, "08:00", "21:59"))).contains("end time 21:59"))
        #expect(try #require(message(settings(2, "09:00", "09:00"))).contains("start and end at the same time"))
        #expect(try #require(message(.standard, gap: -5)).contains("0 minutes or more, not -5"))
    }

    @Test("An unknown zone falls back to the study default, else America/New_York")
    func timeZoneFallback() {
        #expect(ParticipantTimeZone.resolve("Europe/Berlin", studyDefault: "Asia/Tokyo").identifier == "Europe/Berlin")
        #expect(ParticipantTimeZone.resolve("null", studyDefault: "Asia/Tokyo").identifier == "Asia/Tokyo")
        #expect(ParticipantTimeZone.resolve(nil, studyDefault: "Nowhere/Land").identifier == "America/New_York")
        #expect(ParticipantTimeZone.resolve("none").identifier == "America/New_York")
    }
}

import Foundation
import Testing
@testable import MomentaryCore

@Suite("Signalling windows and days")
struct SignallingWindowTests {
    let newYork = TimeZone(identifier: "America/New_York")!
    let night = SignallingSettings(beepsPerDay: 2, start: TimeOfDay("22:00")!, end: TimeOfDay("06:00")!)

    func instant(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    @Test("The window runs from the start time to 10 minutes before the end time")
    func windowBounds() throws {
        let window = SignallingWindow(localDate: LocalDate("2026-06-01")!, settings: .standard, timeZone: newYork)
        #expect(window.start == (try instant("2026-06-01T12:00:00Z")))
        #expect(window.end == (try instant("2026-06-02T01:50:00Z")))
        #expect(window.hoursEnd == (try instant("2026-06-02T02:00:00Z")))
    }

    @Test("Night hours belong to the day they start on and end the next morning")
    func nightWindow() throws {
        let window = SignallingWindow(localDate: LocalDate("2026-06-01")!, settings: night, timeZone: newYork)
        #expect(window.start == (try instant("2026-06-02T02:00:00Z")))  // 22:00 EDT on 1 June
        #expect(window.hoursEnd == (try instant("2026-06-02T10:00:00Z")))  // 06:00 EDT on 2 June
    }

    @Test("Which signalling day an instant belongs to, and when that day ends")
    func signallingDay() throws {
        // 03:00 on 2 June is still inside the night that began on 1 June.
        let early = SignallingWindow.signallingDay(
            containing: try instant("2026-06-02T07:00:00Z"), settings: night, timeZone: newYork)
        #expect(early.localDate == LocalDate("2026-06-01"))
        // At 07:00 that night is over; the next one (2 June) has not begun.
        let morning = SignallingWindow.signallingDay(
            containing: try instant("2026-06-02T11:00:00Z"), settings: night, timeZone: newYork)
        #expect(morning.localDate == LocalDate("2026-06-02"))
        #expect(morning.hoursEnd == (try instant("2026-06-03T10:00:00Z")))
        // With 08:00–22:00, 23:00 already belongs to tomorrow.
        let late = SignallingWindow.signallingDay(
            containing: try instant("2026-06-02T03:00:00Z"), settings: .standard, timeZone: newYork)
        #expect(late.localDate == LocalDate("2026-06-02"))
        #expect(late.start > (try instant("2026-06-02T03:00:00Z")))
    }
}

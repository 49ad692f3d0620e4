import Foundation
import Testing
@testable import MomentaryCore

/// The remembered offsets must answer exactly what the zone database answers: compared, minute
/// by minute around transitions and at random over years, with conversions that read the zone
/// every time.
@Suite("Zone offsets remembered as spans")
struct ZoneOffsetSpansTests {
    static let zones = [
        "America/New_York", "Europe/London", "Europe/Berlin", "Australia/Lord_Howe", "Australia/Sydney",
        "America/Sao_Paulo", "Asia/Kolkata", "Asia/Tokyo", "Pacific/Chatham", "America/St_Johns", "UTC",
    ].map { TimeZone(identifier: $0)! }

    /// `WallClock.instantSeconds` as written before the spans: every offset read from the zone.
    static func direct(_ local: Int, _ zone: TimeZone) -> Int {
        func offset(_ seconds: Int) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))) }
        let candidates = [offset(local - 86_400), offset(local), offset(local + 86_400)]
        let occurrences = candidates.filter { offset(local - $0) == $0 }.map { local - $0 }
        if let earliest = occurrences.min() { return earliest }
        var before = local - candidates.max()!
        var after = local - candidates.min()!
        while after - before > 1 {
            let probe = before + (after - before) / 2
            if probe + offset(probe) >= local { after = probe } else { before = probe }
        }
        return after
    }

    @Test("every minute of the days around each transition of 2026–2027, in zones with odd offsets and rules")
    func aroundTransitions() {
        let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
        let end = Date(timeIntervalSince1970: 1_830_297_600)  // 2028-01-01
        for zone in Self.zones {
            var transition = zone.nextDaylightSavingTimeTransition(after: start)
            while let instant = transition, instant < end {
                let local = Int(instant.timeIntervalSince1970) + zone.secondsFromGMT(for: instant)
                for minute in stride(from: local - 2 * 86_400, through: local + 2 * 86_400, by: 60) {
                    let expected = Self.direct(minute, zone)
                    #expect(WallClock.instantSeconds(ofLocalSeconds: minute, in: zone) == expected,
                            "\(zone.identifier) local \(minute)")
                    #expect(WallClock.offset(at: minute, in: zone) == zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(minute))))
                }
                transition = zone.nextDaylightSavingTimeTransition(after: instant)
            }
        }
    }

    @Test("random instants from 1990 to 2060 agree with the zone, in any order")
    func randomInstants() {
        var generator = Xoshiro256StarStar(seed: 41)
        for _ in 0..<20_000 {
            let zone = Self.zones[Int(generator.next() % UInt64(Self.zones.count))]
            let local = 631_152_000 + Int(generator.next() % 2_208_988_800)
            #expect(WallClock.instantSeconds(ofLocalSeconds: local, in: zone) == Self.direct(local, zone), "\(zone.identifier) \(local)")
        }
    }

    @Test("a span never reaches past the zone's next transition")
    func spansStopAtTransitions() throws {
        let spans = ZoneOffsetSpans()
        let newYork = TimeZone(identifier: "America/New_York")!
        let januaryFirst = 1_767_225_600
        let span = spans.learn(from: januaryFirst, in: newYork)
        // 2026-03-08 07:00 UTC: New York springs forward.
        #expect(span.offset == -5 * 3600 && span.last == 1_772_953_200 - 1)
        #expect(spans.span(covering: januaryFirst, 1_772_953_200 - 1, in: newYork) != nil)
        #expect(spans.span(covering: januaryFirst, 1_772_953_200, in: newYork) == nil)
        #expect(spans.span(covering: januaryFirst - 1, januaryFirst, in: newYork) == nil)
        #expect(spans.offset(at: 1_772_953_200, in: newYork) == -4 * 3600)
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(spans.learn(from: januaryFirst, in: tokyo).last == januaryFirst + ZoneOffsetSpans.longestSpan, "no transitions: a year at most")
    }
}

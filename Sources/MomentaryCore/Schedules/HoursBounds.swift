import Foundation

/// A study's earliest start and latest end as an arc of the 24-hour circle, measured forward from
/// the earliest start, so bounds across midnight (22:00–06:00) need no special case.
struct HoursBounds: Sendable, Hashable, CustomStringConvertible {
    /// Which end of a participant's hours has to move, and why.
    struct Fault: Sendable, Hashable {
        /// `start` when no end could make the hours fit with this start, `end` otherwise.
        let field: String
        let reason: ParticipantSettingsProblem.Reason
    }

    let earliestStart: TimeOfDay
    let latestEnd: TimeOfDay

    /// `nil` unless both are on quarter hours and differ, as `StudySignallingRules.problems()` requires.
    init?(earliestStart: TimeOfDay?, latestEnd: TimeOfDay?) {
        guard let earliestStart, let latestEnd, earliestStart != latestEnd,
              earliestStart.minutes % 15 == 0, latestEnd.minutes % 15 == 0
        else { return nil }
        self.earliestStart = earliestStart
        self.latestEnd = latestEnd
    }

    /// Minutes from `from` forward to `to`, `0..<1440`.
    static func minutes(from: TimeOfDay, to: TimeOfDay) -> Int { (to.minutes - from.minutes + 1440) % 1440 }

    /// The length of the bounds in minutes.
    var minutes: Int { Self.minutes(from: earliestStart, to: latestEnd) }

    /// The time `offset` minutes after the earliest start.
    func time(after offset: Int) -> TimeOfDay {
        TimeOfDay(minutes: (earliestStart.minutes + offset) % 1440)!
    }

    var description: String { "\(earliestStart)–\(latestEnd)" }

    /// `nil` when the hours lie within the bounds and last at least `minimumWindow` minutes.
    func fault(start: TimeOfDay, end: TimeOfDay, minimumWindow: Int) -> Fault? {
        let startOffset = Self.minutes(from: earliestStart, to: start)
        let length = Self.minutes(from: start, to: end)
        let outside = startOffset >= minutes || startOffset + length > minutes
        guard outside || length < minimumWindow else { return nil }
        // After this start not even the shortest hours end in time, so the start has to move.
        let field = startOffset > minutes - minimumWindow ? "start" : "end"
        return Fault(field: field, reason: outside ? .outsideBounds : .windowTooShort)
    }
}

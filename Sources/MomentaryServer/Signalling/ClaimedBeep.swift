import Foundation

/// A beep this worker has moved to `sending`: from here on only this worker may send it.
struct ClaimedBeep: Sendable, Hashable {
    let id: UUID
    let participantID: UUID
    let studyID: UUID
    let origin: Beep.Origin
    let scheduledAt: Date
    /// Its fixed schedule's own answer window, which wins over the study's.
    var answerWindowMinutes: Int? = nil
    /// An API beep its caller asked to send whatever the participant's hours.
    var ignoresHours = false
    /// 1 for the first push of the beep, 2 for the first retry, and so on.
    var attempt: Int = 1
}

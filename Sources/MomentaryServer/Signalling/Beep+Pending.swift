import Foundation

extension Beep {
    /// A pending beep.
    convenience init(
        participantID: UUID, studyID: UUID, surveyID: UUID?, origin: Origin,
        localDate: String, sequence: Int, scheduledAt: Date, timeZone: String, now: Date
    ) {
        self.init()
        self.$participant.id = participantID
        self.$study.id = studyID
        self.$survey.id = surveyID
        self.origin = origin
        self.localDate = localDate
        self.sequence = sequence
        self.scheduledAt = scheduledAt
        self.timeZone = timeZone
        self.status = .pending
        self.createdAt = now
    }
}

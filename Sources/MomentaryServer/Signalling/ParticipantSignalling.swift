import Foundation
import MomentaryCore

/// A participant's signalling state read from their row: zone, settings, and whether beeps may
/// be planned and sent at all.
struct ParticipantSignalling: Sendable {
    let participantID: UUID
    let timeZone: TimeZone
    /// `nil` when the stored hours are not times of day (a bug or a hand edit).
    let settings: SignallingSettings?
    let registeredOn: LocalDate?
    /// The participant's named dates, from which fixed rules may count (`ParticipantDates`).
    let dates: [String: LocalDate]
    let plannedThrough: LocalDate?
    /// Active (the push service has not disowned the token) and participating (not withdrawn
    /// or restricted).
    let takesPart: Bool
    /// Whether the server plans and pushes this participant's beeps: always in server-scheduled
    /// studies, and in device-scheduled ones for web participants, because a browser cannot
    /// schedule local notifications (the server pushes the same schedule instead).
    let isServerSignalled: Bool
    /// The last day the study beeps this participant (their own calendar), if the study ends.
    let lastDay: LocalDate?
    /// The participant's arm, in a study with arms.
    var arm: String? = nil

    init(_ participant: Participant, study: StudySignalling) {
        participantID = participant.id ?? UUID()
        timeZone = ParticipantTimeZone.resolve(participant.timeZone, studyDefault: study.defaultTimeZone)
        if let start = TimeOfDay(minutes: participant.signalStartMinutes),
           let end = TimeOfDay(minutes: participant.signalEndMinutes), start != end {
            settings = SignallingSettings(
                beepsPerDay: participant.beepsPerDay, start: start, end: end, sound: participant.sound)
        } else {
            settings = nil
        }
        registeredOn = LocalDate(participant.registeredLocalDate)
        dates = participant.namedDates
        plannedThrough = participant.plannedThrough.flatMap(LocalDate.init)
        takesPart = participant.active && participant.status == .participating
        isServerSignalled = study.serverScheduled || participant.pushChannel == PushChannelKind.webPush.rawValue
        lastDay = study.end.lastDay(registeredOn: registeredOn)
        arm = participant.arm
    }

    /// Whether the study has ended for this participant by `day`.
    func isOver(on day: LocalDate) -> Bool {
        lastDay.map { day > $0 } ?? false
    }

    /// The signalling day `instant` belongs to under the current settings.
    func signallingDay(containing instant: Date) -> SignallingWindow? {
        settings.map { SignallingWindow.signallingDay(containing: instant, settings: $0, timeZone: timeZone) }
    }

    /// Whether `instant` lies within the participant's hours (start to end time, the delivery
    /// margin included: a beep planned just before the margin may go out a moment late).
    func isWithinHours(_ instant: Date) -> Bool {
        guard let window = signallingDay(containing: instant) else { return false }
        return instant >= window.start && instant < window.hoursEnd
    }
}

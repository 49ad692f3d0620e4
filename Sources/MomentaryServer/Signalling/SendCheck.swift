import Foundation
import MomentaryCore

/// What to do with a claimed beep, decided at send time from the participant's and the study's
/// CURRENT rows: settings may have changed since the beep was planned.
enum SendDecision: Sendable {
    case send(PushMessage, address: PushAddress, channel: any PushChannel)
    /// Not pushed: the beep ends with this status, outcome and reason.
    case skip(status: Beep.Status, outcome: String, reason: String)
}

enum SendCheck {
    /// How long a beep sent outside any hours (a test beep, an API beep ignoring hours) stays
    /// answerable in a study without an answer window.
    static let testBeepLifetime: TimeInterval = 15 * 60

    /// Safeguards, in order: the participant still takes part (else `cancelled`); the study has not
    /// ended for them (else `cancelled`; test beeps exempt); the study still pushes (else
    /// `cancelled`; test, API and follow-up beeps exempt: someone, or an answer, asked for this one); `now` lies within
    /// the participant's hours (else `missed`, or `failed` for a retry; test beeps and API beeps
    /// and follow-ups asked to ignore hours exempt); the participant has a usable address on a configured
    /// channel (else `failed`).
    static func decide(
        _ beep: ClaimedBeep, participant: Participant?, study: StudySignalling?,
        channels: PushChannelRegistry, now: Date
    ) -> SendDecision {
        guard let participant, let study else {
            return .skip(status: .cancelled, outcome: "gone", reason: "the participant or study no longer exists")
        }
        let state = ParticipantSignalling(participant, study: study)
        guard state.takesPart else {
            let why = participant.active ? "the participant is \(participant.status.rawValue)" : "the participant's push token is no longer valid"
            return .skip(status: .cancelled, outcome: "not_taking_part", reason: why)
        }
        let isTest = beep.origin == .test
        if !isTest, let today = state.signallingDay(containing: now)?.localDate, state.isOver(on: today) {
            return .skip(status: .cancelled, outcome: "study_over", reason: "the study has ended for this participant")
        }
        guard state.isServerSignalled || isTest || beep.origin == .api || beep.origin == .followUp else {
            return .skip(status: .cancelled, outcome: "device_scheduled", reason: "the study now schedules beeps on the device")
        }
        let expiresAt: Date
        if isTest || beep.ignoresHours {
            // It lives as the study's beeps do where the study sets an answer window; no hours end it.
            expiresAt = now.addingTimeInterval(windowMinutes(of: beep, in: study).map { Double($0) * 60 } ?? testBeepLifetime)
        } else {
            guard state.isWithinHours(now), let window = state.signallingDay(containing: now) else {
                return outsideHours(beep, state: state, now: now)
            }
            var answerWindow = study.answerWindow
            answerWindow.answerWindowMinutes = windowMinutes(of: beep, in: study)
            expiresAt = answerWindow.deadline(deliveredAt: now, fallback: window.hoursEnd)
        }
        let address: PushAddress
        do {
            address = try PushAddress(participant: participant)
        } catch {
            return .skip(status: .failed, outcome: "no_address", reason: error.description)
        }
        guard let channel = channels.channel(named: address.channel) else {
            let reason = address.channel == "none"
                ? "the participant registered without a push channel"
                : "no “\(address.channel)” push channel is configured on this server"
            return .skip(status: .failed, outcome: "no_channel", reason: reason)
        }
        let message = PushMessage(
            id: beep.id, participantID: beep.participantID, alert: study.alert(for: participant),
            sound: participant.sound, badge: 1, expiresAt: expiresAt)
        return .send(message, address: address, channel: channel)
    }

    /// The beep's own answer window (its fixed schedule's), else the study's; nil for none.
    static func windowMinutes(of beep: ClaimedBeep, in study: StudySignalling) -> Int? {
        beep.answerWindowMinutes ?? study.answerWindow.answerWindowMinutes
    }

    private static func outsideHours(_ beep: ClaimedBeep, state: ParticipantSignalling, now: Date) -> SendDecision {
        let hours = state.settings.map { "\($0.start)–\($0.end)" } ?? "(unreadable)"
        let hoursText = "the participant's current hours \(hours) (\(state.timeZone.identifier))"
        if beep.attempt > 1 {
            return .skip(status: .failed, outcome: "rejected",
                         reason: "the push service refused it and the retry would have fallen outside \(hoursText)")
        }
        return .skip(status: .missed, outcome: "outside_hours", reason: "due outside \(hoursText)")
    }
}

extension SendCheck {
    /// A reminder goes out only while its beep awaits an answer nobody has begun: sent, not
    /// opened, not past its deadline; then under the same safeguards as a beep (hours, taking
    /// part, an address), with the reminder's text and the beep's identity and deadline.
    static func decideReminder(
        _ reminder: ClaimedReminder, beep: Beep?, participant: Participant?, study: StudySignalling?,
        channels: PushChannelRegistry, now: Date
    ) -> SendDecision {
        guard let beep, let beepID = beep.id else {
            return .skip(status: .cancelled, outcome: "gone", reason: "the beep no longer exists")
        }
        guard beep.status == .sent, beep.openedAt == nil else {
            let why = beep.openedAt != nil && beep.status == .sent ? "opened" : beep.status.rawValue
            return .skip(status: .cancelled, outcome: "not_awaited", reason: "the beep was \(why) before the reminder fell due")
        }
        if let deadline = beep.expiresAt, deadline <= now {
            return .skip(status: .cancelled, outcome: "not_awaited", reason: "the beep's answer window closed before the reminder")
        }
        let asBeep = ClaimedBeep(
            id: beepID, participantID: reminder.participantID, studyID: reminder.studyID, origin: beep.origin, scheduledAt: beep.scheduledAt,
            answerWindowMinutes: beep.answerWindowMinutes, ignoresHours: beep.ignoresHours ?? false)
        switch decide(asBeep, participant: participant, study: study, channels: channels, now: now) {
        case .skip(let status, let outcome, let reason):
            return .skip(status: status == .missed ? .cancelled : status, outcome: outcome, reason: reason)
        case .send(var message, let address, let channel):
            if let study, let participant { message.alert = study.alert(for: participant, reminder: true) }
            message.expiresAt = beep.expiresAt ?? message.expiresAt
            return .send(message, address: address, channel: channel)
        }
    }
}

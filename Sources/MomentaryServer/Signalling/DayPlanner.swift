import Foundation
import MomentaryCore

/// A beep the planner decided on, before it is stored.
struct PlannedBeep: Sendable, Hashable {
    let origin: Beep.Origin
    /// The signalling day (random) or rule date (fixed) the beep belongs to.
    let localDate: LocalDate
    let scheduledAt: Date
    /// The survey a fixed rule belongs to; `nil` for random beeps (the study's current ESM survey).
    let surveyID: UUID?
    /// The zone it was planned in, kept on the beep so a later move does not rewrite its local times.
    let timeZone: String
    /// Its fixed schedule's own answer window, if it sets one.
    var answerWindowMinutes: Int? = nil
    /// An API beep's Idempotency-Key.
    var requestKey: String? = nil
    /// An API beep sent whatever the participant's hours.
    var ignoresHours = false
}

/// The beeps of whole local days for one participant: pure computation, no database.
enum DayPlanner {
    /// Random and fixed beeps for `days`, keeping only those after `now`.
    ///
    /// `currentDay` is the signalling day containing `now`: if it is among `days`, its random
    /// beeps are the pro-rata remainder after `now` (the whole day when its window has not
    /// opened yet). Fixed beeps are planned whatever the participant's hours; one that falls
    /// outside them is marked missed at send time, so researchers see the clash.
    static func beeps<Generator: RandomNumberGenerator>(
        for participant: ParticipantSignalling, in study: StudySignalling,
        days: [LocalDate], currentDay: LocalDate, now: Date, using generator: inout Generator
    ) -> [PlannedBeep] {
        guard let settings = participant.settings else { return [] }
        var planned = [PlannedBeep]()
        // In a study with arms, the participant's arm decides what applies (`StudyArm`).
        let arm = study.arms?.arm(named: participant.arm)
        let randomSurveyID = arm.flatMap { arm in study.beepSurveys.first { arm.includesSurvey($0.name) }?.id }
        if arm?.randomSampling ?? study.randomSampling, let fitting = fittingSettings(settings, gap: study.minimumGapMinutes) {
            for day in days where study.samplesRandomly(on: day, registeredOn: participant.registeredOn) {
                let instants: [Date]
                do {
                    if day == currentDay {
                        instants = try RandomSchedule.remainingBeeps(
                            after: now, settings: fitting, minimumGapMinutes: study.minimumGapMinutes,
                            timeZone: participant.timeZone, sampling: study.sampling, using: &generator)
                    } else {
                        instants = try RandomSchedule.beeps(
                            on: day, settings: fitting, minimumGapMinutes: study.minimumGapMinutes,
                            timeZone: participant.timeZone, sampling: study.sampling, using: &generator)
                    }
                } catch {
                    continue  // fittingSettings already validated them; nothing sensible to plan
                }
                planned += instants.filter { $0 > now }
                    .map { PlannedBeep(
                        origin: .random, localDate: day, scheduledAt: $0, surveyID: randomSurveyID, timeZone: participant.timeZone.identifier) }
            }
        }
        if let registeredOn = participant.registeredOn {
            for day in days {
                var moments = [(instant: Date, surveyIndex: Int, surveyID: UUID, window: Int?)]()
                for (index, rules) in study.fixedRules.enumerated() where arm?.followsFixedSchedule(of: rules.surveyName) ?? true {
                    let instants = FixedSchedule.beeps(
                        rules.document, registeredOn: registeredOn, dates: participant.dates, timeZone: participant.timeZone,
                        from: day, through: day)
                    moments += instants.map { ($0, index, rules.surveyID, rules.document.answerWindowMinutes) }
                }
                moments.sort { ($0.instant, $0.surveyIndex) < ($1.instant, $1.surveyIndex) }
                planned += moments.filter { $0.instant > now }
                    .map { PlannedBeep(
                        origin: .fixed, localDate: day, scheduledAt: $0.instant, surveyID: $0.surveyID,
                        timeZone: participant.timeZone.identifier, answerWindowMinutes: $0.window) }
            }
        }
        return planned
    }

    /// The settings to plan with. When the study's gap was raised after the participant chose
    /// their frequency, as many beeps as still fit are planned rather than none; `nil` when not
    /// even one fits or the settings are unusable for another reason.
    static func fittingSettings(_ settings: SignallingSettings, gap: Int) -> SignallingSettings? {
        if (try? settings.validate(minimumGapMinutes: gap)) != nil { return settings }
        var reduced = settings
        reduced.beepsPerDay = gap > 0 ? min(settings.beepsPerDay, settings.usableMinutes / gap) : settings.beepsPerDay
        guard reduced.beepsPerDay >= 1, (try? reduced.validate(minimumGapMinutes: gap)) != nil else { return nil }
        return reduced
    }
}

extension StudySignalling {
    /// Whether random beeps come on `day`: every day, or within the study's measurement bursts
    /// counted from the participant's registration (day 1 is the registration day).
    func samplesRandomly(on day: LocalDate, registeredOn: LocalDate?) -> Bool {
        guard let samplingDays else { return true }
        guard let registeredOn else { return false }
        return samplingDays.includes(day, registeredOn: registeredOn)
    }
}

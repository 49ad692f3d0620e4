import Fluent
import Foundation
import MomentaryCore

/// Turns participants' settings and the study's rules into pending beeps (Mappiness' planner).
///
/// Each participant is planned one signalling day ahead: after planning, `planned_through` is the
/// day after the current one, and `next_plan_at` is the end of the current day's hours, when
/// `planDueDays` adds the following day. Planning is idempotent: a day is planned once, guarded
/// by `planned_through` under a lock on the participant's row, and the unique
/// (participant, origin, local date, sequence) index rejects any duplicate that slipped past.
/// Only server-scheduled studies, active and participating participants are planned.
public enum BeepPlanner {
    /// Plans a newly registered participant: the rest of the current signalling day (pro rata
    /// when registering inside the window) and the next day. Also right after reactivation or
    /// reinstatement; a participant already planned gets nothing more.
    public static func planNewParticipant(_ participantID: UUID, on db: any Database, now: Date) async throws {
        var randomness = BeepRandomness.system
        try await planNewParticipant(participantID, on: db, now: now, using: &randomness)
    }

    public static func planNewParticipant(
        _ participantID: UUID, on db: any Database, now: Date, using generator: inout some RandomNumberGenerator
    ) async throws {
        _ = try await plan(participantID, on: db, now: now, seed: generator.next(), replan: false, studies: nil)
    }

    /// Replans after the participant changed settings (or time zone): cancels their pending random
    /// and fixed beeps after `now`, then plans the rest of the current day pro rata and the next day.
    public static func settingsChanged(_ participantID: UUID, on db: any Database, now: Date) async throws {
        var randomness = BeepRandomness.system
        try await settingsChanged(participantID, on: db, now: now, using: &randomness)
    }

    public static func settingsChanged(
        _ participantID: UUID, on db: any Database, now: Date, using generator: inout some RandomNumberGenerator
    ) async throws {
        _ = try await plan(participantID, on: db, now: now, seed: generator.next(), replan: true, studies: nil)
    }

    /// Replans every participating participant of a study after its rules changed (the gap, beeps a
    /// day, random sampling, fixed times, the end): each as after a change of their own settings.
    /// Returns how many participants were replanned.
    @discardableResult
    public static func studyRulesChanged(_ studyID: UUID, on db: any Database, now: Date) async throws -> Int {
        var randomness = BeepRandomness.system
        let participants = try await Participant.query(on: db).filter(\.$study.$id == studyID)
            .filter(\.$status == .participating).filter(\.$active == true).all(\.$id)
        let studies = try await StudySignalling.load([studyID], on: db)
        for participantID in participants {
            _ = try await plan(participantID, on: db, now: now, seed: randomness.next(), replan: true, studies: studies)
        }
        return participants.count
    }

    /// Cancels every pending beep of the participant (withdrawal, restriction, unregistered
    /// token) and stops planning them until `planNewParticipant` is called again.
    public static func cancelPendingBeeps(
        of participantID: UUID, on db: any Database, now: Date,
        reason: String = "the participant no longer takes part"
    ) async throws {
        try await db.transaction { tx in
            try await PlanStore.lock(participantID, on: tx)
            try await PlanStore.cancelPending(
                participantID, origins: [.random, .fixed, .test, .followUp], after: nil, reason: reason, on: tx)
            try await PlanStore.setPlan(participantID, plannedThrough: nil, nextPlanAt: nil, on: tx)
        }
    }

    /// The periodic job: every participant whose current signalling day has ended gets the next
    /// one. Uses the `next_plan_at` index, so it costs one indexed query when nobody is due.
    /// Plans at most `limit` participants (the dispatcher keeps calls short so that due beeps are
    /// not held up); returns how many participants were planned.
    public static func planDueDays(on db: any Database, now: Date, limit: Int = 1_000) async throws -> Int {
        var randomness = BeepRandomness.system
        return try await planDueDays(on: db, now: now, limit: limit, using: &randomness)
    }

    public static func planDueDays(
        on db: any Database, now: Date, limit: Int = 1_000, using generator: inout some RandomNumberGenerator
    ) async throws -> Int {
        let due = try await PlanStore.participantsDue(at: now, limit: limit, on: db)
        guard !due.isEmpty else { return 0 }
        let studyIDs = try await Participant.query(on: db).filter(\.$id ~~ due).all(\.$study.$id)
        let studies = try await StudySignalling.load(Set(studyIDs), on: db)
        for participantID in due {
            do {
                _ = try await plan(participantID, on: db, now: now, seed: generator.next(), replan: false, studies: studies)
            } catch {
                // One participant's failure must not hold up everyone planned after them: try again later.
                db.logger.error("Could not plan the next day of participant \(participantID): \(String(reflecting: error))")
                try await PlanStore.setPlan(
                    participantID, plannedThrough: nil, nextPlanAt: now.addingTimeInterval(retryAfterFailure), keepPlannedThrough: true, on: db)
            }
        }
        return due.count
    }

    /// How long to wait before trying again to plan a participant whose planning failed.
    static let retryAfterFailure: TimeInterval = 300

    /// Plans one participant in one transaction; returns the number of beeps stored.
    ///
    /// Each plan draws from its own generator seeded from the caller's, so the transaction's
    /// closure can own it (and a seeded caller still plans reproducibly).
    static func plan(
        _ participantID: UUID, on db: any Database, now: Date, seed: UInt64, replan: Bool,
        studies: [UUID: StudySignalling]?
    ) async throws -> Int {
        try await db.transaction { tx in
            try await PlanStore.lock(participantID, on: tx)
            guard let participant = try await Participant.find(participantID, on: tx) else { return 0 }
            let studyID = participant.$study.id
            var loaded = studies ?? [:]
            if loaded[studyID] == nil { loaded = try await StudySignalling.load([studyID], on: tx) }
            guard let study = loaded[studyID] else { return 0 }
            let state = ParticipantSignalling(participant, study: study)
            if replan {
                try await PlanStore.cancelPending(
                    participantID, origins: [.random, .fixed], after: now, reason: "replanned after a settings change", on: tx)
            }
            guard state.isServerSignalled, state.takesPart, let today = state.signallingDay(containing: now) else {
                try await PlanStore.setPlan(participantID, plannedThrough: state.plannedThrough, nextPlanAt: nil, on: tx)
                return 0
            }
            let current = today.localDate
            if state.isOver(on: current) {
                // The study has ended for this participant: nothing more to plan, ever.
                try await PlanStore.setPlan(participantID, plannedThrough: state.plannedThrough, nextPlanAt: nil, on: tx)
                return 0
            }
            let target = state.lastDay.map { min(current.adding(days: 1), $0) } ?? current.adding(days: 1)
            let first = replan ? current : max(current, state.plannedThrough.map { $0.adding(days: 1) } ?? current)
            let days = first <= target ? (0...first.days(until: target)).map { first.adding(days: $0) } : []
            var generator = BeepRandomness.seeded(seed)
            let planned = DayPlanner.beeps(
                for: state, in: study, days: days, currentDay: current, now: now, using: &generator)
            try await PlanStore.insert(planned, participantID: participantID, studyID: studyID, now: now, on: tx)
            let through = replan ? target : max(target, state.plannedThrough ?? target)
            try await PlanStore.setPlan(participantID, plannedThrough: through, nextPlanAt: today.hoursEnd, on: tx)
            return planned.count
        }
    }
}

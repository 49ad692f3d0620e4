import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// A beep another system asks for (`POST /api/v1/research/studies/{slug}/participants/{label}/beeps`).
struct APIBeepRequest: Sendable {
    /// The survey to ask; nil for the study's beep survey.
    var surveyID: UUID?
    /// Its own answer window; nil for the study's.
    var answerWindowMinutes: Int?
    /// false: sent whatever the participant's hours.
    var respectHours = true
    /// The caller's Idempotency-Key: a retried call with the same key is the same beep.
    var requestKey: String?
}

/// How many beeps other systems may ask for, counted from the beeps table so that every server
/// of a deployment counts the same: a runaway script cannot flood a participant or a study.
enum APIBeepLimits {
    static let perParticipant = 24
    static let participantWindow: TimeInterval = 24 * 3_600
    static let perStudy = 2_000
    static let studyWindow: TimeInterval = 3_600
}

/// Why an API beep was not even attempted.
enum APIBeepError: Error, Sendable, Equatable, CustomStringConvertible {
    case participantNotTakingPart(status: String)
    case studyArchived
    case limitReached(String, retryAfter: Int)
    case notRecorded

    var description: String {
        switch self {
        case .participantNotTakingPart(let status):
            "The participant is \(status); beeps go only to participants taking part."
        case .studyArchived:
            "The study is archived and sends no beeps; reopen it first."
        case .limitReached(let what, _):
            what
        case .notRecorded:
            "The beep could not be recorded; try again with the same Idempotency-Key."
        }
    }
}

extension SignalDispatcher {
    /// Sends an `api` beep now through the path every beep takes (claim → safeguards → push →
    /// record, retried like scheduled beeps). With a request key already used for this
    /// participant, sends nothing and returns the earlier beep (`repeated`).
    func sendAPIBeep(_ asked: APIBeepRequest, to participant: Participant, in study: Study) async throws -> (beepID: UUID, repeated: Bool) {
        guard participant.active, participant.status == .participating else {
            throw APIBeepError.participantNotTakingPart(status: participant.active ? participant.status.rawValue : "inactive (push token unregistered)")
        }
        guard study.archivedAt == nil else { throw APIBeepError.studyArchived }
        let participantID = try participant.requireID()
        let studyID = try study.requireID()
        let now = timeSource.now()
        let zone = ParticipantTimeZone.resolve(participant.timeZone, studyDefault: study.defaultTimeZone)
        let planned = PlannedBeep(
            origin: .api, localDate: WallClock.localDate(of: now, in: zone), scheduledAt: now, surveyID: asked.surveyID,
            timeZone: zone.identifier, answerWindowMinutes: asked.answerWindowMinutes,
            requestKey: asked.requestKey, ignoresHours: !asked.respectHours)
        try await BeepStore.heartbeat(of: workerID, at: now, on: database)
        let outcome = try await database.transaction { tx -> (UUID, ClaimedBeep?) in
            // Under the participant's lock, two calls with one key cannot both insert.
            try await PlanStore.lock(participantID, on: tx)
            if let key = asked.requestKey,
               let earlier = try await Beep.query(on: tx).filter(\.$participant.$id == participantID).filter(\.$requestKey == key).first() {
                return (try earlier.requireID(), nil)
            }
            try await Self.checkLimits(participantID: participantID, studyID: studyID, now: now, on: tx)
            guard let claimed = try await self.insertClaimed(planned, participantID: participantID, studyID: studyID, now: now, on: tx) else {
                throw APIBeepError.notRecorded
            }
            return (claimed.id, claimed)
        }
        guard let claimed = outcome.1 else { return (outcome.0, true) }
        _ = try await deliver([claimed], retryAllowed: true)
        return (claimed.id, false)
    }

    private static func checkLimits(participantID: UUID, studyID: UUID, now: Date, on db: any Database) async throws {
        let api = Beep.Origin.api.rawValue
        for (column, id, limit, window, whom) in [
            ("participant_id", participantID, APIBeepLimits.perParticipant, APIBeepLimits.participantWindow, "this participant in 24 hours"),
            ("study_id", studyID, APIBeepLimits.perStudy, APIBeepLimits.studyWindow, "this study in an hour"),
        ] {
            let since = now.addingTimeInterval(-window)
            let row = try await db.sql.select()
                .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count")
                .column(SQLFunction("MIN", args: SQLColumn("scheduled_at")), as: "oldest")
                .from("beeps")
                .where(SQLColumn(column), .equal, SQLBind(id)).where("origin", .equal, api).where("scheduled_at", .greaterThan, since)
                .first()
            let count = try row?.decode(column: "count", as: Int.self) ?? 0
            guard count < limit else {
                let oldest = try row?.decodeIfPresent(column: "oldest", as: Date.self) ?? now
                let retryAfter = max(1, Int(oldest.addingTimeInterval(window).timeIntervalSince(now).rounded(.up)))
                throw APIBeepError.limitReached(
                    "At most \(limit) beeps may be asked for \(whom); try again in \(retryAfter) seconds.", retryAfter: retryAfter)
            }
        }
    }
}

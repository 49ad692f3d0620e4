import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// The app's home screen (Mappiness `user_status`): responses so far, response rate, typical
/// response time, the beep awaiting an answer, and a line of encouragement.
enum ParticipantStatusService {
    /// Beeps that reached the participant: the denominator of the response rate. Ignored beeps
    /// (arrived while the app was busy) are left out: the participant could not have answered them.
    static let deliveredStatuses: [Beep.Status] = [.sent, .answered, .expired]

    static func status(of participant: Participant, on db: any Database, now: Date) async throws -> ParticipantStatus {
        let participantID = try participant.requireID()
        let counts = try await Self.counts(of: participantID, on: db)
        // Someone who has left, or been paused, is waited for by no beep.
        let takesPart = participant.status == .participating
        let pending = takesPart ? try await pendingBeep(of: participantID, on: db, now: now) : nil
        let rate = counts.delivered > 0 ? Double(counts.answered) / Double(counts.delivered) : nil
        let study = try await Study.find(participant.$study.id, on: db)
        let over = study.map { studyIsOver(participant, study: $0, now: now) } ?? false
        let language = participant.language ?? study?.defaultLanguage
        return ParticipantStatus(
            responses: counts.responses, responseRate: rate, typicalResponseSeconds: counts.medianDelay,
            pendingBeep: pending.map { PendingBeep(id: $0.id, scheduledAt: $0.deliveredAt, expiresAt: $0.expiresAt) },
            message: !takesPart ? notTakingPartMessage(participant.status, language: language)
                : over ? studyOverMessage(language: language)
                : message(participant: participant, responses: counts.responses, pending: pending != nil, language: language),
            feedbackAvailable: study?.feedbackEnabled ?? false, dataDownloadAvailable: study?.dataDownloadEnabled ?? false,
            dataDownloadEnabled: (study?.dataDownloadEnabled ?? false) && participant.downloadTokenHash != nil,
            environment: try await EnvironmentRisk.latest(
                participantID: participantID, sensitivity: participant.pollenSensitivity.flatMap(PollenType.init(rawValue:)), on: db, now: now
            )?.inLanguage(language),
            language: language, unreadMessages: try await MessageService.unreadCount(of: participantID, on: db),
            arm: study?.arms?.showArmToParticipants == true ? participant.arm : nil)
    }

    private struct Counts {
        var responses = 0
        var delivered = 0
        var answered = 0
        var medianDelay: Double?
    }

    /// Counted by the database in one statement from index entries alone (responses by
    /// participant, kind and delay, M036; beeps by participant and status): the home screen reads
    /// no response row and sorts nothing however many there are, and only the one or two middle
    /// delays come back, read in order from the index. Delays are counted among esm responses
    /// only, which changes nothing (only an answer to a beep has one, and beeps ask esm surveys)
    /// and lets the one index serve every count.
    private static func counts(of participantID: UUID, on db: any Database) async throws -> Counts {
        let sql = db.sql
        struct CountRow: Decodable { let responses: Int; let delays: Int; let delivered: Int; let answered: Int }
        struct DelayRow: Decodable { let delay: Double }
        let row = try await sql.raw(countsStatement(of: participantID)).first(decoding: CountRow.self)
        var counts = Counts(responses: row?.responses ?? 0, delivered: row?.delivered ?? 0, answered: row?.answered ?? 0)
        let delays = row?.delays ?? 0
        if delays > 0 {
            counts.medianDelay = median(try await sql.raw(middleDelaysStatement(of: participantID, delays: delays))
                .all(decoding: DelayRow.self).map(\.delay))
        }
        return counts
    }

    /// The participant's esm responses, those with a delay (answering no test beep), beeps delivered and beeps answered,
    /// a researcher's test beeps left out: one pass over the participant's entries in each index (a
    /// count is a walk over entries, so each separate count would walk them again; figures:
    /// BENCHMARKS.md, `momentary-bench status`); test beeps are counted apart from their own
    /// partial index (M041) and taken away.
    static func countsStatement(of participantID: UUID) -> SQLQueryString {
        let answered = Beep.Status.answered.rawValue
        let delivered: SQLQueryString = "IN (\(binds: deliveredStatuses.map(\.rawValue)))"
        return """
            SELECT r.responses, r.delays, b.delivered - t.delivered AS delivered, b.answered - t.answered AS answered
            FROM (SELECT COUNT(*) AS responses, COUNT(CASE WHEN \(notATestAnswer(of: participantID)) THEN delay_seconds END) AS delays
                  FROM responses WHERE participant_id = \(bind: participantID) AND kind = \(bind: Survey.Kind.esm.rawValue)) AS r,
                 (SELECT COUNT(*) AS delivered, COUNT(CASE WHEN status = \(bind: answered) THEN 1 END) AS answered FROM beeps
                  WHERE participant_id = \(bind: participantID) AND status \(delivered)) AS b,
                 (SELECT COUNT(*) AS delivered, COUNT(CASE WHEN status = \(bind: answered) THEN 1 END) AS answered FROM beeps
                  WHERE participant_id = \(bind: participantID) AND origin = 'test' AND status \(delivered)) AS t
            """
    }

    /// The response answers no test beep: the test beeps' ids come from their own partial index
    /// (M041), a handful at most, so the responses are still read from their own index alone.
    static func notATestAnswer(of participantID: UUID) -> SQLQueryString {
        "(beep_id IS NULL OR beep_id NOT IN (SELECT id FROM beeps WHERE participant_id = \(bind: participantID) AND origin = 'test'))"
    }

    /// The one or two middle delays of the participant's `delays` delays (test beeps' answers left
    /// out), in order.
    static func middleDelaysStatement(of participantID: UUID, delays: Int) -> SQLQueryString {
        """
        SELECT delay_seconds AS delay FROM responses
        WHERE participant_id = \(bind: participantID) AND kind = \(bind: Survey.Kind.esm.rawValue) AND delay_seconds IS NOT NULL
            AND \(notATestAnswer(of: participantID))
        ORDER BY delay_seconds LIMIT \(literal: delays.isMultiple(of: 2) ? 2 : 1) OFFSET \(literal: (delays - 1) / 2)
        """
    }

    static func studyOverMessage(language: String?) -> String {
        AppCatalogues.text("status.study_over", language: language)
    }

    /// Whether the study has ended for the participant today, in their own calendar.
    static func studyIsOver(_ participant: Participant, study: Study, now: Date) -> Bool {
        let zone = ParticipantTimeZone.resolve(participant.timeZone, studyDefault: study.defaultTimeZone)
        return study.end.isOver(
            on: WallClock.localDate(of: now, in: zone), registeredOn: LocalDate(participant.registeredLocalDate))
    }

    /// A beep awaiting an answer: the few columns its readers need.
    struct AwaitedBeep: Decodable, Sendable {
        let id: UUID
        let surveyID: UUID?
        let scheduledAt: Date
        let sentAt: Date?
        let expiresAt: Date?

        /// When it reached the participant (as far as the server knows).
        var deliveredAt: Date { sentAt ?? scheduledAt }

        /// Self while it can still be answered at `now`.
        func awaited(at now: Date) -> AwaitedBeep? {
            if let expiresAt, expiresAt <= now { return nil }
            return self
        }

        enum CodingKeys: String, CodingKey {
            case id, surveyID = "survey_id", scheduledAt = "scheduled_at", sentAt = "sent_at", expiresAt = "expires_at"
        }
    }

    /// The beep awaiting an answer: the latest one delivered and not yet answered, ignored or
    /// expired. A plain query of five columns: every upload that names no beep asks for it.
    static func pendingBeep(of participantID: UUID, on db: any Database, now: Date) async throws -> AwaitedBeep? {
        return try await db.sql.raw(latestSentBeepQuery(of: SQLBind(participantID))).first(decoding: AwaitedBeep.self)?.awaited(at: now)
    }

    /// The participant's latest delivered beep not answered, ignored or expired by the signaller,
    /// as a query (ingest runs it as part of a larger one); `AwaitedBeep.awaited(at:)` then leaves
    /// out one whose answer window has closed.
    static func latestSentBeepQuery(of participantID: any SQLExpression) -> SQLQueryString {
        """
        SELECT id, survey_id, scheduled_at, sent_at, expires_at FROM beeps
        WHERE participant_id = \(participantID) AND status = \(bind: Beep.Status.sent.rawValue)
        ORDER BY scheduled_at DESC LIMIT 1
        """
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    private static func notTakingPartMessage(_ status: Participant.Status, language: String?) -> String {
        status == .withdrawn
            ? AppCatalogues.text("status.withdrawn", language: language)
            : AppCatalogues.text("status.paused", language: language)
    }

    /// In the participant's language, from the app's catalogues.
    private static func message(participant: Participant, responses: Int, pending: Bool, language: String?) -> String {
        if pending { return AppCatalogues.text("status.pending", language: language) }
        let hours = participant.signallingSettings
        switch responses {
        case 0: return AppCatalogues.text("status.welcome", language: language, ["start": "\(hours.start)", "end": "\(hours.end)"])
        case 1: return AppCatalogues.text("status.first_response", language: language)
        default: return AppCatalogues.text("status.responses", language: language, count: responses)
        }
    }
}

import Fluent
import Foundation
import Logging
import MomentaryCore
import SQLKit

/// Checks every alert rule (in `serve`, every minute) and raises each alert once: the event's
/// unique (rule, subject) key is taken in the same transaction that queues its emails, so a
/// check repeated, or run by two servers at once, never mails twice.
enum AlertChecker {
    static let interval: Duration = .seconds(60)
    /// Responses received this long before a rule's last check are looked at again, so one whose
    /// batch committed late is still seen; its key keeps it to one alert.
    static let overlap: TimeInterval = 600
    /// A day's failed beeps alert only once this many were attempted, so one failure of one is no alarm.
    static let minimumAttempts = 5
    /// The digest of a day goes out from this local time the next morning.
    static let digestMinutes = 7 * 60
    static let responsesPerCheck = 1_000

    /// An alert about to be raised.
    struct Alert: Sendable, Equatable {
        let key: String
        var participantID: UUID?
        /// One line, for the study's page and the email's subject.
        let summary: String
        /// The email's text after the summary.
        var details: String = ""
    }

    /// Checks every rule; returns how many alerts were raised.
    @discardableResult
    static func run(on db: any Database, now: Date, mail: MailSender?, logger: Logger) async -> Int {
        var raised = 0
        let rules: [AlertRule]
        do {
            rules = try await AlertRule.query(on: db).with(\.$study).all()
        } catch {
            logger.warning("Could not read the alert rules: \(String(describing: error))")
            return 0
        }
        for rule in rules where rule.study.archivedAt == nil {
            do {
                raised += try await raise(try await evaluate(rule, now: now, on: db), of: rule, mail: mail, on: db, now: now)
            } catch {
                logger.warning("Could not check alert rule \(rule.id?.uuidString ?? "?"): \(String(describing: error))")
            }
        }
        if raised > 0 { mail?.wakeUp() }
        return raised
    }

    /// Records each alert and queues its emails, once; returns how many were new. A rule's
    /// evaluation lists its standing alerts every minute (each quiet participant, say), so the
    /// recipients are looked up once for them all, and only when there is any.
    static func raise(_ alerts: [Alert], of rule: AlertRule, mail: MailSender?, on db: any Database, now: Date) async throws -> Int {
        guard !alerts.isEmpty else { return 0 }
        // Checked at each check, not only when the rule was made: someone who has left the
        // study (or whose account was disabled) gets no more of its alerts.
        var reachable: [MailAddress] = []
        for researcher in try await Researcher.query(on: db).filter(\.$id ~~ rule.recipients).all() {
            guard let signedIn = try await SignedInResearcher.load(id: try researcher.requireID(), on: db),
                  signedIn.canAccess(studyID: rule.$study.id),
                  let address = MailAddress(name: researcher.name, address: researcher.email) else { continue }
            reachable.append(address)
        }
        let addresses = reachable
        let delivery = mail == nil ? "not sent: this server has no mail settings" : addresses.isEmpty ? "not sent: no recipient left" : "emailed to \(addresses.map(\.address).joined(separator: ", "))"
        var raised = 0
        for alert in alerts where try await raise(alert, of: rule, to: addresses, delivery: delivery, mail: mail, on: db, now: now) {
            raised += 1
        }
        return raised
    }

    /// One alert: its event row and emails in one transaction; false when it was raised before.
    private static func raise(
        _ alert: Alert, of rule: AlertRule, to addresses: [MailAddress], delivery: String, mail: MailSender?, on db: any Database, now: Date
    ) async throws -> Bool {
        try await db.transaction { tx in
            let taken = try await tx.sql.raw("""
                INSERT INTO alert_events (id, rule_id, study_id, subject_key, participant_id, summary, delivery, created_at)
                VALUES (\(bind: UUID()), \(bind: try rule.requireID()), \(bind: rule.$study.id), \(bind: alert.key), \(bind: alert.participantID),
                        \(bind: alert.summary), \(bind: delivery), \(bind: now))
                ON CONFLICT (rule_id, subject_key) DO NOTHING
                RETURNING id
                """).all()
            guard !taken.isEmpty else { return false }
            if let mail, !addresses.isEmpty {
                let body = alert.summary + "\n\n" + (alert.details.isEmpty ? "" : alert.details + "\n\n")
                    + "This alert comes from the rule “\(describe(rule))” of the study “\(rule.study.name)”; change it on the study's Alerts page.\n"
                try await MailOutbox.enqueue(
                    .alert, to: addresses, subject: "[\(rule.study.name)] " + alert.summary, body: body, from: mail.settings.from, on: tx, now: now)
            }
            return true
        }
    }

    /// The rule in words, for emails and the website.
    static func describe(_ rule: AlertRule) -> String {
        switch rule.kind {
        case .quiet: "a participant has not answered for \(rule.days ?? 0) days"
        case .response: "a response meets \(rule.condition ?? "")"
        case .failures: "more than \(rule.thresholdPercent ?? 0) % of a day's beeps failed"
        case .digest: "daily digest of compliance"
        case .replies: "a participant replied to a message"
        }
    }

    /// The alerts the rule would raise now (some perhaps raised before).
    static func evaluate(_ rule: AlertRule, now: Date, on db: any Database) async throws -> [Alert] {
        switch rule.kind {
        case .quiet: try await quiet(rule, now: now, on: db)
        case .response: try await responses(rule, now: now, on: db)
        case .failures: try await failures(rule, now: now, on: db)
        case .digest: try await digest(rule, now: now, on: db)
        case .replies: try await replies(rule, now: now, on: db)
        }
    }

    private static func quiet(_ rule: AlertRule, now: Date, on db: any Database) async throws -> [Alert] {
        let days = rule.days ?? 1
        let cutoff = now.addingTimeInterval(-Double(days) * 86_400)
        let rows = try await db.sql.raw("""
            SELECT id, label, COALESCE(last_answered_at, registered_at) AS since FROM participants
            WHERE study_id = \(bind: rule.$study.id) AND status = 'participating' AND erased_at IS NULL
            AND COALESCE(last_answered_at, registered_at) < \(bind: cutoff)
            """).all()
        return try rows.map { row in
            let id = try row.decode(column: "id", as: UUID.self)
            let since = try row.decode(column: "since", as: Date.self)
            let label = try row.decodeIfPresent(column: "label", as: String.self) ?? id.uuidString.prefix(8).lowercased()
            // One alert per quiet spell: a new answer starts a new one.
            return Alert(
                key: "quiet:\(id.uuidString.lowercased()):\(Int(since.timeIntervalSince1970))", participantID: id,
                summary: "Participant \(label) has not answered for \(days) day\(days == 1 ? "" : "s")",
                details: "Last answer (or joining): \(WireCoding.string(from: since)).")
        }
    }

    /// Each reply received since the last check, once; its text only where the rule says so.
    private static func replies(_ rule: AlertRule, now: Date, on db: any Database) async throws -> [Alert] {
        let since = (rule.checkedThrough ?? rule.createdAt).addingTimeInterval(-overlap)
        let rows = try await db.sql.raw("""
            SELECT m.id, m.participant_id, p.label, m.text, m.created_at FROM messages m JOIN participants p ON p.id = m.participant_id
            WHERE m.study_id = \(bind: rule.$study.id) AND m.from_participant = \(bind: true)
            AND m.created_at > \(bind: since) AND m.created_at <= \(bind: now)
            ORDER BY m.created_at LIMIT \(literal: responsesPerCheck)
            """).all()
        let alerts = try rows.map { row in
            let id = try row.decode(column: "id", as: UUID.self)
            let participantID = try row.decode(column: "participant_id", as: UUID.self)
            let label = try row.decodeIfPresent(column: "label", as: String.self) ?? "?"
            var alert = Alert(
                key: "reply:\(id.uuidString.lowercased())", participantID: participantID,
                summary: "Participant \(label) replied to a message",
                details: "Sent \(WireCoding.string(from: try row.decode(column: "created_at", as: Date.self))); read it on the participant's messages page.")
            if rule.includeAnswers { alert.details += "\n\n" + (try row.decode(column: "text", as: String.self)) }
            return alert
        }
        rule.checkedThrough = rows.count == responsesPerCheck ? try rows.last?.decode(column: "created_at", as: Date.self) : now
        try await rule.save(on: db)
        return alerts
    }

    private static func responses(_ rule: AlertRule, now: Date, on db: any Database) async throws -> [Alert] {
        guard let surveyID = rule.$survey.id, let text = rule.condition,
              let json = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return [] }
        let condition = DisplayCondition(json: json)
        let since = (rule.checkedThrough ?? rule.createdAt).addingTimeInterval(-overlap)
        let rows = try await db.sql.raw("""
            SELECT r.id, r.participant_id, p.label, p.variables, r.survey_version, r.submitted_at, r.received_at
            FROM responses r JOIN participants p ON p.id = r.participant_id
            WHERE r.survey_id = \(bind: surveyID) AND r.received_at > \(bind: since) AND r.received_at <= \(bind: now)
            ORDER BY r.received_at LIMIT \(literal: responsesPerCheck)
            """).all()
        var documents: [Int: SurveyDocument] = [:]
        var alerts: [Alert] = []
        var checkedThrough = now
        for row in rows {
            let responseID = try row.decode(column: "id", as: UUID.self)
            let version = try row.decode(column: "survey_version", as: Int.self)
            if documents[version] == nil, let stored = try await SurveyCatalog.version(version, of: surveyID, on: db) {
                documents[version] = try SurveyCatalog.document(of: stored)
            }
            guard let document = documents[version] else { continue }
            let answers = try await Self.answers(of: responseID, on: db)
            // A rule may test the participant's variables (`var:name`), as display_if can.
            let variables = (try row.decodeIfPresent(column: "variables", as: String.self))
                .flatMap { try? JSONDecoder().decode([String: JSONValue].self, from: Data($0.utf8)) } ?? [:]
            guard document.answers(answers, meet: condition, variables: variables) else { continue }
            let label = try row.decodeIfPresent(column: "label", as: String.self) ?? "?"
            var alert = Alert(
                key: "response:\(responseID.uuidString.lowercased())", participantID: try row.decode(column: "participant_id", as: UUID.self),
                summary: "A response of participant \(label) meets \(text)",
                details: "Response \(responseID.uuidString.lowercased()), submitted \(WireCoding.string(from: try row.decode(column: "submitted_at", as: Date.self))).")
            if rule.includeAnswers {
                alert.details += "\n\nAnswers:\n" + document.content.compactMap { question in
                    answers[question.id].map { "- \(question.id): \(AlertChecker.text(of: $0))" }
                }.joined(separator: "\n")
            }
            alerts.append(alert)
        }
        if rows.count == responsesPerCheck, let last = rows.last {
            checkedThrough = try last.decode(column: "received_at", as: Date.self)
        }
        rule.checkedThrough = checkedThrough
        try await rule.save(on: db)
        return alerts
    }

    /// The response's answers, question id → stored value.
    private static func answers(of responseID: UUID, on db: any Database) async throws -> [String: JSONValue] {
        var answers: [String: JSONValue] = [:]
        for row in try await db.sql.raw("SELECT question_id, value FROM answers WHERE response_id = \(bind: responseID)").all() {
            guard let text = try row.decodeIfPresent(column: "value", as: String.self),
                  let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { continue }
            answers[try row.decode(column: "question_id", as: String.self)] = value
        }
        return answers
    }

    static func text(of value: JSONValue) -> String {
        (try? String(decoding: JSONEncoder().encode(value), as: UTF8.self)) ?? ""
    }

    private static func failures(_ rule: AlertRule, now: Date, on db: any Database) async throws -> [Alert] {
        let threshold = rule.thresholdPercent ?? 100
        let today = ComplianceReport.today(of: rule.study, now: now)
        let counts = try await StudyTallies.counts(studyID: rule.$study.id, subject: .beeps, since: today.adding(days: -1).description, on: db.sql)
        return [today.adding(days: -1), today].compactMap { day in
            let tally = BeepTally(Dictionary(counts.filter { $0.day == day.description }.map { ($0.status, $0.n) }, uniquingKeysWith: +))
            let attempted = tally.sent + tally.failed
            guard attempted >= minimumAttempts, tally.failed * 100 > threshold * attempted else { return nil }
            return Alert(
                key: "failures:\(day)",
                summary: "\(tally.failed) of \(attempted) beeps on \(day) could not be delivered (\(tally.failed * 100 / attempted) %)",
                details: "Look at the study's page for the reasons (Signalling) and at each participant's push health.")
        }
    }

    private static func digest(_ rule: AlertRule, now: Date, on db: any Database) async throws -> [Alert] {
        let zone = TimeZone(identifier: rule.study.defaultTimeZone) ?? .gmt
        let today = ComplianceReport.today(of: rule.study, now: now)
        guard WallClock.instant(on: today, at: TimeOfDay(minutes: digestMinutes)!, in: zone) <= now else { return [] }
        let day = today.adding(days: -1)
        let counts = try await StudyTallies.counts(studyID: rule.$study.id, subject: .beeps, since: day.description, on: db.sql)
        let tally = BeepTally(Dictionary(counts.filter { $0.day == day.description }.map { ($0.status, $0.n) }, uniquingKeysWith: +))
        let participating = try await Participant.query(on: db).filter(\.$study.$id == rule.$study.id).filter(\.$status == .participating).count()
        let rate = tally.rate.map { "\(Int(($0 * 100).rounded())) %" } ?? "none sent"
        return [Alert(
            key: "digest:\(day)",
            summary: "Compliance on \(day): \(tally.answered) of \(tally.sent) beeps answered (\(rate))",
            details: "Participating: \(participating). Beeps delivered: \(tally.sent), answered: \(tally.answered), ignored: \(tally.ignored), missed or expired: \(tally.missed), failed: \(tally.failed).")]
    }
}

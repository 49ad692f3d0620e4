import Fluent
import Foundation
import SQLKit

/// Whom a researcher's message goes to: one participant by label, or those the participants page
/// lists for a filter (label search, status, no answer in N days), never anyone who has withdrawn
/// or been erased. The filter is the participants page's own (`ComplianceReport.filterSQL`), so
/// "write to these participants" reaches exactly the people the list showed.
struct MessageAudience: Sendable, Equatable {
    var label: String?
    /// One participant by id (a conversation's page names them so).
    var participantID: UUID?
    var list = ParticipantListQuery()

    static func participant(_ label: String) -> MessageAudience { MessageAudience(label: label) }
    static func participant(id: UUID) -> MessageAudience { MessageAudience(participantID: id) }

    /// A recipient as the sending needs them.
    struct Recipient: Sendable {
        let id: UUID
        let language: String?
        /// Whether the push token still works: the signaller then tries its channel.
        let active: Bool
        /// Whether the participant registered with a push channel at all.
        let hasChannel: Bool
    }

    /// The participants `p` of the study this audience means.
    private func conditions(in studyID: UUID, now: Date) -> SQLQueryString {
        var sql: SQLQueryString = " WHERE p.study_id = \(bind: studyID) AND p.erased_at IS NULL AND p.status <> 'withdrawn'"
        if let participantID {
            sql += " AND p.id = \(bind: participantID)"
        } else if let label {
            sql += " AND p.label = \(bind: label)"
        } else {
            sql += ComplianceReport.filterSQL(list, now: now)
        }
        return sql
    }

    /// How many participants a message would reach now, counted by the database.
    func count(in studyID: UUID, now: Date, on db: any Database) async throws -> Int {
        let sql: SQLQueryString = "SELECT COUNT(*) AS n FROM participants p" + conditions(in: studyID, now: now)
        return try await db.sql.raw(sql).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    func recipients(in studyID: UUID, now: Date, on db: any Database) async throws -> [Recipient] {
        let sql: SQLQueryString = "SELECT p.id, p.language, p.push_channel, p.active FROM participants p"
            + conditions(in: studyID, now: now) + " ORDER BY p.registered_at, p.id"
        return try await db.sql.raw(sql).all().map { row in
            Recipient(
                id: try row.decode(column: "id", as: UUID.self), language: try row.decodeIfPresent(column: "language", as: String.self),
                active: try row.decode(column: "active", as: Bool.self), hasChannel: try row.decode(column: "push_channel", as: String.self) != "none")
        }
    }

    /// In words for the website: "participant BCD23", "participants taking part with no answer in 3 days".
    var description: String {
        if let label { return "participant \(label)" }
        if participantID != nil { return "one participant" }
        var words = "participants"
        switch list.status {
        case .participating?: words += " taking part"
        case .restricted?: words += " whose participation is paused"
        default: words = "every participant who has not withdrawn"
        }
        if let fragment = list.labelFragment { words += " with “\(fragment)” in their label" }
        if let days = list.quietDays { words += " with no answer in \(days) day\(days == 1 ? "" : "s")" }
        return words
    }
}

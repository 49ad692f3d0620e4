import Crypto
import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// What a webhook receives: `{"id", "event", "created_at", "study", "data"}`, where `data` names
/// the row the event is about (ids, label, times; never answers). Made at the first attempt from
/// the rows as they then are, and kept, so retries send the same bytes.
struct WebhookPayload: Encodable {
    let id: String
    let event: String
    let createdAt: Date
    let study: String
    let data: [String: String]

    enum CodingKeys: String, CodingKey {
        case id, event, createdAt = "created_at", study, data
    }

    /// The payload of a claimed delivery; a subject deleted meanwhile keeps only its id.
    static func make(for delivery: WebhookOutbox.Claimed, study: String, now: Date, on db: any Database) async throws -> WebhookPayload {
        var data: [String: String] = [:]
        let sql = db.sql
        func time(_ row: any SQLRow, _ column: String) throws -> String? {
            try row.decodeIfPresent(column: column, as: Date.self).map(WireCoding.string(from:))
        }
        switch WebhookEvent(rawValue: delivery.event) {
        case .participantJoined, .participantWithdrawn:
            data["participant_id"] = delivery.subjectID.uuidString.lowercased()
            if let row = try await sql.raw("SELECT label, registered_at, withdrawn_at FROM participants WHERE id = \(bind: delivery.subjectID)").first() {
                data["participant_label"] = try row.decodeIfPresent(column: "label", as: String.self)
                data["registered_at"] = try time(row, "registered_at")
                data["withdrawn_at"] = try time(row, "withdrawn_at")
            }
        case .responseStored:
            data["response_id"] = delivery.subjectID.uuidString.lowercased()
            if let row = try await sql.raw("""
                SELECT r.participant_id, p.label, s.name AS survey, r.beep_id, r.submitted_at, r.received_at
                FROM responses r JOIN participants p ON p.id = r.participant_id JOIN surveys s ON s.id = r.survey_id
                WHERE r.id = \(bind: delivery.subjectID)
                """).first() {
                data["participant_id"] = try row.decode(column: "participant_id", as: UUID.self).uuidString.lowercased()
                data["participant_label"] = try row.decodeIfPresent(column: "label", as: String.self)
                data["survey"] = try row.decode(column: "survey", as: String.self)
                data["beep_id"] = try row.decodeIfPresent(column: "beep_id", as: UUID.self)?.uuidString.lowercased()
                data["submitted_at"] = try time(row, "submitted_at")
                data["received_at"] = try time(row, "received_at")
            }
        case .beepExpired:
            data["beep_id"] = delivery.subjectID.uuidString.lowercased()
            if let row = try await sql.raw("""
                SELECT b.participant_id, p.label, b.origin, b.scheduled_at, b.sent_at, b.expires_at
                FROM beeps b JOIN participants p ON p.id = b.participant_id WHERE b.id = \(bind: delivery.subjectID)
                """).first() {
                data["participant_id"] = try row.decode(column: "participant_id", as: UUID.self).uuidString.lowercased()
                data["participant_label"] = try row.decodeIfPresent(column: "label", as: String.self)
                data["origin"] = try row.decode(column: "origin", as: String.self)
                data["scheduled_at"] = try time(row, "scheduled_at")
                data["sent_at"] = try time(row, "sent_at")
                data["expires_at"] = try time(row, "expires_at")
            }
        case .messageReplied:
            data["message_id"] = delivery.subjectID.uuidString.lowercased()
            if let row = try await sql.raw("""
                SELECT m.participant_id, p.label, m.in_reply_to, m.created_at
                FROM messages m JOIN participants p ON p.id = m.participant_id WHERE m.id = \(bind: delivery.subjectID)
                """).first() {
                data["participant_id"] = try row.decode(column: "participant_id", as: UUID.self).uuidString.lowercased()
                data["participant_label"] = try row.decodeIfPresent(column: "label", as: String.self)
                data["in_reply_to"] = try row.decodeIfPresent(column: "in_reply_to", as: UUID.self)?.uuidString.lowercased()
                data["sent_at"] = try time(row, "created_at")
            }
        case nil:
            break
        }
        return WebhookPayload(id: delivery.id, event: delivery.event, createdAt: now, study: study, data: data)
    }

    func encoded() throws -> String {
        String(decoding: try WireCoding.makeEncoder().encode(self), as: UTF8.self)
    }

    /// `Momentary-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the secret>`.
    /// The time inside what is signed lets a receiver refuse an old delivery replayed.
    static func signature(of body: String, secret: String, at timestamp: Int) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).\(body)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return "t=\(timestamp),v1=" + BlobStore.hex(code)
    }
}

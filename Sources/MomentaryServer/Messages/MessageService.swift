import Fluent
import Foundation
import MomentaryCore

/// Messages between a study's researchers and its participants: the one place that checks what
/// may be sent, stores it and reads it back, for the website, the research API and the app.
enum MessageService {
    /// The longest message or reply, in characters: a few paragraphs, readable on a phone.
    static let maximumLength = 2_000
    /// The most recent messages the app's inbox shows.
    static let inboxSize = 200

    /// Why a message could not be sent; `field` names the form field or JSON key at fault.
    struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        let field: String
        let message: String
        var description: String { message }
    }

    /// The texts of a message, one per study language, checked: each present, not blank, and at
    /// most `maximumLength` characters; no language the study does not offer.
    static func checkedTexts(_ texts: [String: String], languages: [String]) -> (text: LocalizedText?, refusals: [Refusal]) {
        var refusals: [Refusal] = []
        var kept: [String: String] = [:]
        for (tag, _) in texts where !languages.contains(where: { $0.caseInsensitiveCompare(tag) == .orderedSame }) {
            refusals.append(Refusal(field: "text_\(tag)", message: "The study does not offer the language “\(tag)”; it offers \(languages.joined(separator: ", "))."))
        }
        for language in languages {
            let given = texts.first { $0.key.caseInsensitiveCompare(language) == .orderedSame }?.value ?? ""
            let text = given.trimmingCharacters(in: .whitespacesAndNewlines)
            let name = languages.count > 1 ? " in \(QuestionTranslationFields.displayName(of: language))" : ""
            if text.isEmpty {
                refusals.append(Refusal(field: "text_\(language)", message: "Write the message\(name): every participant reads it in their own language."))
            } else if text.count > maximumLength {
                refusals.append(Refusal(field: "text_\(language)", message: "The message\(name) has \(text.count) characters; at most \(maximumLength) fit."))
            }
            kept[language] = text
        }
        return (refusals.isEmpty ? LocalizedText(byLanguage: kept) : nil, refusals)
    }

    /// What one sending did.
    struct Sent: Sendable {
        let sendID: UUID
        let recipients: Int
        /// Of them, those without a push address: they find it in the inbox when they next open the app.
        let withoutPush: Int
        /// False when `requestKey` named an earlier sending, which is what this describes.
        var created = true
    }

    /// Writes one row per recipient, each in the language that participant reads, with its push
    /// waiting for the signaller (which the caller wakes). All or nothing. With a `requestKey`
    /// (the research API's Idempotency-Key) a repeated call sends nothing and describes the first.
    static func send(
        _ text: LocalizedText, to audience: MessageAudience, in study: Study, by researcher: String, requestKey: String? = nil,
        now: Date, on db: any Database
    ) async throws -> Sent {
        let studyID = try study.requireID()
        let key = requestKey.map { "api:" + $0 }
        if let key, let earlier = try await earlierSending(key, in: studyID, on: db) { return earlier }
        let recipients = try await audience.recipients(in: studyID, now: now, on: db)
        guard !recipients.isEmpty else {
            throw Refusal(field: audience.label == nil && audience.participantID == nil ? "audience" : "participant",
                          message: audience.label.map { "No participant “\($0)” who has not withdrawn takes part in this study." }
                            ?? audience.participantID.map { _ in "This participant has left the study: nothing more can be sent." }
                            ?? "No participant matches: nobody would get this message.")
        }
        let sendID = UUID()
        let languages = study.languages
        do {
            try await insert(recipients, sendID: sendID, text: text, languages: languages, studyID: studyID, by: researcher, key: key, now: now, on: db)
        } catch where key != nil && (error as? any DatabaseError)?.isConstraintFailure == true {
            // The same key sent by a concurrent retry in between: that one is the sending.
            guard let key, let earlier = try await earlierSending(key, in: studyID, on: db) else { throw error }
            return earlier
        }
        return Sent(sendID: sendID, recipients: recipients.count, withoutPush: recipients.filter { !$0.active || !$0.hasChannel }.count)
    }

    private static func insert(
        _ recipients: [MessageAudience.Recipient], sendID: UUID, text: LocalizedText, languages: [String], studyID: UUID,
        by researcher: String, key: String?, now: Date, on db: any Database
    ) async throws {
        try await db.transaction { tx in
            for chunk in recipients.chunked(500) {
                let rows = chunk.map { recipient -> ParticipantMessage in
                    let row = ParticipantMessage()
                    row.id = UUID()
                    row.$study.id = studyID
                    row.$participant.id = recipient.id
                    row.fromParticipant = false
                    row.sendID = sendID
                    let language = LanguageTag.choose(recipient.language.map { [$0] } ?? [], among: languages) ?? languages[0]
                    row.language = language
                    row.text = text.resolved(for: [language], languages: languages)
                    row.sentBy = researcher
                    row.requestKey = key
                    row.createdAt = now
                    // The signaller decides by the channels it has (in development, the outbox serves "none").
                    row.pushState = recipient.active ? .pending : .none
                    row.pushReason = recipient.active ? nil : "the participant's push token is no longer valid"
                    return row
                }
                try await rows.create(on: tx)
            }
        }
    }

    /// The sending an Idempotency-Key made before, described as it was sent.
    private static func earlierSending(_ key: String, in studyID: UUID, on db: any Database) async throws -> Sent? {
        guard let first = try await ParticipantMessage.query(on: db).filter(\.$study.$id == studyID).filter(\.$requestKey == key).first(),
              let sendID = first.sendID else { return nil }
        let rows = try await ParticipantMessage.query(on: db).filter(\.$sendID == sendID).all()
        let without = try await Participant.query(on: db).filter(\.$id ~~ rows.map(\.$participant.id))
            .group(.or) { $0.filter(\.$active == false).filter(\.$pushChannel == "none") }.count()
        return Sent(sendID: sendID, recipients: rows.count, withoutPush: without, created: false)
    }

    /// The participant's most recent messages, oldest first, as the app shows them.
    static func inbox(of participant: Participant, on db: any Database) async throws -> [ParticipantMessage] {
        try await ParticipantMessage.query(on: db).filter(\.$participant.$id == participant.requireID())
            .sort(\.$createdAt, .descending).sort(\.$id, .descending).limit(inboxSize).all().reversed()
    }

    static func unreadCount(of participantID: UUID, on db: any Database) async throws -> Int {
        try await ParticipantMessage.query(on: db).filter(\.$participant.$id == participantID)
            .filter(\.$fromParticipant == false).filter(\.$readAt == nil).count()
    }

    /// Marks one of the researchers' messages to this participant read (the first time only);
    /// nil when the participant has no such message.
    static func markRead(_ id: UUID, of participant: Participant, now: Date, on db: any Database) async throws -> ParticipantMessage? {
        guard let message = try await ParticipantMessage.query(on: db).filter(\.$id == id)
            .filter(\.$participant.$id == participant.requireID()).first() else { return nil }
        if message.readAt == nil, !message.fromParticipant {
            message.readAt = now
            try await message.save(on: db)
        }
        return message
    }

    /// Stores a participant's reply once per Idempotency-Key: a retried call returns the reply
    /// the first stored (`created` false). Refused when the study does not take replies, the text
    /// is blank or too long, or `inReplyTo` is not a message to this participant.
    static func reply(
        _ text: String, inReplyTo: UUID?, key idempotencyKey: String, from participant: Participant, now: Date, on db: any Database
    ) async throws -> (message: ParticipantMessage, created: Bool) {
        let participantID = try participant.requireID()
        // Kept apart from the research API's keys, which share the column.
        let key = "reply:" + idempotencyKey
        if let earlier = try await ParticipantMessage.query(on: db).filter(\.$participant.$id == participantID)
            .filter(\.$requestKey == key).first() {
            return (earlier, false)
        }
        guard let study = try await Study.find(participant.$study.id, on: db), study.messageRepliesAllowed else {
            throw APIError(.forbidden, words: "api_error.replies_not_allowed")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw APIError.invalid("Write something to send.", field: "text") }
        guard trimmed.count <= maximumLength else {
            throw APIError.invalid("The reply has \(trimmed.count) characters; at most \(maximumLength) fit.", field: "text")
        }
        if let inReplyTo {
            let answered = try await ParticipantMessage.query(on: db).filter(\.$id == inReplyTo)
                .filter(\.$participant.$id == participantID).filter(\.$fromParticipant == false).count()
            guard answered > 0 else { throw APIError.invalid("You have no message with the id \(inReplyTo).", field: "in_reply_to") }
        }
        let row = ParticipantMessage()
        row.id = UUID()
        row.$study.id = participant.$study.id
        row.$participant.id = participantID
        row.fromParticipant = true
        row.inReplyTo = inReplyTo
        row.text = trimmed
        row.language = participant.language
        row.createdAt = now
        row.requestKey = key
        row.pushState = .none
        do {
            try await db.transaction { tx in
                try await row.create(on: tx)
                try await WebhookOutbox.emit(.messageReplied, subjects: [try row.requireID()], now: now, on: tx)
            }
            return (row, true)
        } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
            // The same key stored by a concurrent retry in between: that one is the reply.
            guard let earlier = try await ParticipantMessage.query(on: db).filter(\.$participant.$id == participantID)
                .filter(\.$requestKey == key).first() else { throw error }
            return (earlier, false)
        }
    }
}

import MomentaryCore
import Vapor

/// Handlers of the participant's inbox: the researchers' messages, marking them read, and replies.
extension ParticipantAPIRoutes {
    func messages(_ request: Request) async throws -> Response {
        let participant = try await request.participantModel()
        let rows = try await MessageService.inbox(of: participant, on: request.db)
        let study = try await Study.find(participant.$study.id, on: request.db)
        let unread = try await MessageService.unreadCount(of: try participant.requireID(), on: request.db)
        return try WireBody.response(Inbox(
            messages: try rows.map(Self.inboxMessage), repliesAllowed: study?.messageRepliesAllowed ?? false, unread: unread))
    }

    func readMessage(_ request: Request) async throws -> Response {
        let participant = try await request.participantModel()
        let id = try Self.uuidParameter("id", of: request)
        guard let message = try await MessageService.markRead(id, of: participant, now: timeSource.now(), on: request.db) else {
            throw APIError.notFound("You have no message with the id \(id).")
        }
        return try WireBody.response(try Self.inboxMessage(message))
    }

    func replyToResearchers(_ request: Request) async throws -> Response {
        let participant = try await request.activeParticipant()
        let key = try IdempotencyKeyHeader.read(request, required: true, for: "this reply") ?? ""
        let reply = try WireBody.decode(MessageReply.self, from: request)
        let stored = try await MessageService.reply(
            reply.text, inReplyTo: reply.inReplyTo, key: key, from: participant, now: timeSource.now(), on: request.db)
        return try WireBody.response(try Self.inboxMessage(stored.message), status: stored.created ? .created : .ok)
    }

    static func inboxMessage(_ row: ParticipantMessage) throws -> InboxMessage {
        InboxMessage(id: try row.requireID(), from: row.fromParticipant ? "participant" : "researchers", text: row.text,
                     sentAt: row.createdAt, readAt: row.fromParticipant ? nil : row.readAt, inReplyTo: row.inReplyTo)
    }
}

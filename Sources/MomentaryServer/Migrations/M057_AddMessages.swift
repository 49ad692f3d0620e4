import Fluent
import Foundation

/// `messages`: what researchers wrote to participants and what participants wrote back. A
/// researcher's message is one row per participant, in the language that participant reads
/// (`send_id` groups the rows of one sending); its push is claimed (`push_state` `sending`) before
/// it is attempted and recorded after. A reply keeps the caller's Idempotency-Key (`request_key`,
/// unique per participant), so a retried reply is stored once.
/// Studies gain `message_replies_allowed`; roles that may change participants' status gain
/// `participants.message`.
struct M057_AddMessages: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("messages")
            .id()
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("participant_id", .uuid, .required, .references("participants", "id", onDelete: .cascade))
            .field("from_participant", .bool, .required)
            .field("send_id", .uuid)
            .field("in_reply_to", .uuid)
            .field("text", .string, .required)
            .field("language", .string)
            .field("sent_by", .string)
            .field("created_at", .datetime, .required)
            .field("read_at", .datetime)
            .field("request_key", .string)
            .field("push_state", .string, .required)
            .field("push_claimed_at", .datetime)
            .field("push_claimed_by", .string)
            .field("push_outcome", .string)
            .field("push_reason", .string)
            .field("pushed_at", .datetime)
            .create()
        try await SQLIndex.create("messages_participant_created", on: "messages", columns: ["participant_id", "created_at"], in: database)
        try await SQLIndex.create("messages_study_created", on: "messages", columns: ["study_id", "created_at"], in: database)
        try await SQLIndex.create("messages_push_state_created", on: "messages", columns: ["push_state", "created_at"], in: database)
        try await SQLIndex.create("messages_participant_request_key", on: "messages", columns: ["participant_id", "request_key"], unique: true, in: database)
        try await database.schema("studies").field("message_replies_allowed", .bool, .required, .sql(.default(false))).update()
        // Whoever may change a participant's status may write to them.
        for granted in try await RolePermission.query(on: database).filter(\.$permission == "participants.status").all() {
            try await RolePermission(roleID: granted.$role.id, permission: "participants.message").save(on: database)
        }
    }

    func revert(on database: any Database) async throws {
        try await RolePermission.query(on: database).filter(\.$permission == "participants.message").delete()
        try await database.schema("studies").deleteField("message_replies_allowed").update()
        for index in ["messages_participant_request_key", "messages_push_state_created", "messages_study_created", "messages_participant_created"] {
            try await SQLIndex.drop(index, in: database)
        }
        try await database.schema("messages").delete()
    }
}

import Fluent
import Foundation

/// Randomised arms. Studies gain `arms` (`StudyArms` as JSON; nil: no arms) and participants
/// `arm` (the arm they are in now). `arm_blocks` keeps each study's and stratum's current permuted
/// block (its sequence and the next position to hand out), updated under the registration's lock
/// on the study, so concurrent registrations never break a block's balance. `arm_allocations`
/// is the seed-free record of every allocation and reassignment: how each arm was chosen.
/// Roles that may change participants' status gain `participants.arm` (reassigning).
struct M060_AddArms: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("studies").field("arms", .string).update()
        try await database.schema("participants").field("arm", .string).update()
        try await database.schema("arm_blocks")
            .id()
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("stratum", .string, .required)
            .field("block_number", .int, .required)
            .field("sequence", .string, .required)
            .field("next_position", .int, .required)
            .unique(on: "study_id", "stratum")
            .create()
        try await database.schema("arm_allocations")
            .id()
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("participant_id", .uuid, .required, .references("participants", "id", onDelete: .cascade))
            .field("arm", .string, .required)
            .field("method", .string, .required)
            .field("stratum", .string)
            .field("block_number", .int)
            .field("block_position", .int)
            .field("block_sequence", .string)
            .field("weights", .string, .required)
            .field("previous_arm", .string)
            .field("researcher_email", .string)
            .field("allocated_at", .datetime, .required)
            .create()
        try await SQLIndex.create("arm_allocations_study_participant", on: "arm_allocations", columns: ["study_id", "participant_id"], in: database)
        for granted in try await RolePermission.query(on: database).filter(\.$permission == "participants.status").all() {
            try await RolePermission(roleID: granted.$role.id, permission: "participants.arm").save(on: database)
        }
    }

    func revert(on database: any Database) async throws {
        try await RolePermission.query(on: database).filter(\.$permission == "participants.arm").delete()
        try await SQLIndex.drop("arm_allocations_study_participant", in: database)
        try await database.schema("arm_allocations").delete()
        try await database.schema("arm_blocks").delete()
        try await database.schema("participants").deleteField("arm").update()
        try await database.schema("studies").deleteField("arms").update()
    }
}

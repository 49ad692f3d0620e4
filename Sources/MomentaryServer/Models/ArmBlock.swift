import Fluent
import Foundation

/// The block allocation is handing out for one study and stratum (`M060_AddArms`).
final class ArmBlock: Model, @unchecked Sendable {
    static let schema = "arm_blocks"

    @ID(key: .id) var id: UUID?
    @Parent(key: "study_id") var study: Study
    /// The registration answer of `stratify_by`, or "" when the study does not stratify.
    @Field(key: "stratum") var stratum: String
    /// 1 for the stratum's first block.
    @Field(key: "block_number") var blockNumber: Int
    /// The block's arms in the order they are handed out, as a JSON list of names.
    @Field(key: "sequence") var sequence: String
    /// The position (0-based) the next participant of the stratum gets.
    @Field(key: "next_position") var nextPosition: Int

    init() {}
}

/// How one participant came to be in an arm: allocated at registration (`simple` or `blocked`)
/// or reassigned by a researcher (`reassigned`). No seed is needed to check it: a blocked row
/// names its block, its position in it and the block's whole permuted sequence.
final class ArmAllocation: Model, @unchecked Sendable {
    static let schema = "arm_allocations"

    @ID(key: .id) var id: UUID?
    @Parent(key: "study_id") var study: Study
    @Parent(key: "participant_id") var participant: Participant
    @Field(key: "arm") var arm: String
    /// `simple`, `blocked` or `reassigned`.
    @Field(key: "method") var method: String
    @OptionalField(key: "stratum") var stratum: String?
    @OptionalField(key: "block_number") var blockNumber: Int?
    /// 1-based position of this participant in the block.
    @OptionalField(key: "block_position") var blockPosition: Int?
    @OptionalField(key: "block_sequence") var blockSequence: String?
    /// The arms' weights when allocated, a JSON object name → weight.
    @Field(key: "weights") var weights: String
    /// For a reassignment: the arm before, and who made it.
    @OptionalField(key: "previous_arm") var previousArm: String?
    @OptionalField(key: "researcher_email") var researcherEmail: String?
    @Field(key: "allocated_at") var allocatedAt: Date

    init() {}
}

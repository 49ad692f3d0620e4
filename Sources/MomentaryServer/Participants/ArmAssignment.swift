import Fluent
import Foundation
import MomentaryCore

/// Allocating participants to a study's arms at registration, and researchers' reassignments,
/// each recorded in `arm_allocations`.
enum ArmAssignment {
    /// Allocates a newly created participant inside the registration's transaction, which holds
    /// the study's write lock (`lockStudyForWriting`): reading and advancing the stratum's block
    /// is therefore one step, however many registrations arrive at once.
    static func allocate(
        _ participant: Participant, arms: StudyArms, answers: [ValidatedAnswer], on db: any Database, now: Date,
        using generator: inout some RandomNumberGenerator
    ) async throws {
        let studyID = participant.$study.id
        let names = arms.arms.map(\.name)
        let weights = arms.arms.map(\.weight)
        let record = ArmAllocation()
        record.$study.id = studyID
        record.$participant.id = try participant.requireID()
        record.method = arms.allocation.method.rawValue
        record.weights = jsonText(Dictionary(uniqueKeysWithValues: zip(names, weights)))
        record.allocatedAt = now
        switch arms.allocation.method {
        case .simple:
            record.arm = names[ArmAllocator.simple(weights: weights, using: &generator)]
        case .blocked:
            let stratum = arms.allocation.stratifyBy.map { stratumValue(of: $0, in: answers) } ?? ""
            let size = arms.allocation.blockSize ?? weights.reduce(0, +)
            let expected = ArmAllocator.balancedContents(arms: names, weights: weights, blockSize: size)
            let block = try await ArmBlock.query(on: db).filter(\.$study.$id == studyID).filter(\.$stratum == stratum).first()
                ?? { let fresh = ArmBlock(); fresh.$study.id = studyID; fresh.stratum = stratum; fresh.blockNumber = 0; fresh.sequence = "[]"; fresh.nextPosition = 0; return fresh }()
            var sequence = (try? JSONDecoder().decode([String].self, from: Data(block.sequence.utf8))) ?? []
            // A finished block, or one made under arms or a size since changed, gives way to a new one.
            if block.nextPosition >= sequence.count || sequence.sorted() != expected.sorted() {
                sequence = ArmAllocator.block(arms: names, weights: weights, blockSize: size, using: &generator)
                block.blockNumber += 1
                block.sequence = jsonText(sequence)
                block.nextPosition = 0
            }
            record.arm = sequence[block.nextPosition]
            record.stratum = arms.allocation.stratifyBy == nil ? nil : stratum
            record.blockNumber = block.blockNumber
            record.blockPosition = block.nextPosition + 1
            record.blockSequence = block.sequence
            block.nextPosition += 1
            try await block.save(on: db)
        }
        try await record.create(on: db)
        participant.arm = record.arm
        try await participant.save(on: db)
    }

    /// A registration answer as the name of its stratum: the value as text, "" when unanswered.
    static func stratumValue(of questionID: String, in answers: [ValidatedAnswer]) -> String {
        guard let value = answers.first(where: { $0.questionID == questionID })?.status.value else { return "" }
        return text(of: value)
    }

    private static func text(of value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .string(let text): text
        case .array(let items): items.map(text(of:)).joined(separator: "|")
        case .object: jsonText(value)
        }
    }

    /// Why a reassignment cannot be made.
    struct Refusal: Error { let message: String }

    /// Moves a participant to another arm, records who did it, and replans their beeps under the
    /// new arm's surveys and schedules.
    static func reassign(
        _ participantID: UUID, to arm: String, in study: Study, by researcherEmail: String, on db: any Database, now: Date
    ) async throws {
        guard let arms = study.arms else { throw Refusal(message: "This study has no arms.") }
        guard let chosen = arms.arm(named: arm) else {
            throw Refusal(message: "There is no arm “\(arm.prefix(40))”; the arms are \(arms.arms.map(\.name).joined(separator: ", ")).")
        }
        try await db.transaction { tx in
            guard let participant = try await Participant.query(on: tx)
                .filter(\.$id == participantID).filter(\.$study.$id == study.requireID()).first() else {
                throw Refusal(message: "There is no such participant in this study.")
            }
            guard participant.arm != chosen.name else { throw Refusal(message: "The participant is already in arm “\(chosen.name)”.") }
            let record = ArmAllocation()
            record.$study.id = try study.requireID()
            record.$participant.id = participantID
            record.arm = chosen.name
            record.method = "reassigned"
            record.weights = jsonText(Dictionary(uniqueKeysWithValues: arms.arms.map { ($0.name, $0.weight) }))
            record.previousArm = participant.arm
            record.researcherEmail = researcherEmail
            record.allocatedAt = now
            try await record.create(on: tx)
            participant.arm = chosen.name
            participant.updatedAt = now
            try await participant.save(on: tx)
        }
        try await BeepPlanner.settingsChanged(participantID, on: db, now: now)
    }

    /// A participant's allocation and reassignments, oldest first.
    static func history(of participantID: UUID, on db: any Database) async throws -> [ArmAllocation] {
        try await ArmAllocation.query(on: db).filter(\.$participant.$id == participantID).sort(\.$allocatedAt).all()
    }

    private static func jsonText(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }
}

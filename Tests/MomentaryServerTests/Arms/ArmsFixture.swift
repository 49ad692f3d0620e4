import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer

/// A study with a registration survey (`gender` stratifies), two beep surveys, "Mood" (random
/// beeps) and "Practice" (a fixed schedule every day at 12:00 and 18:00), and the arms given.
enum ArmsFixture {
    static func document(slug: String, arms: [StudyArm]?, allocation: ArmAllocationRule?, randomSampling: Bool = true) throws -> StudyDocument {
        let practice = try FixedScheduleDocument.parse(Data(#"""
            {"rules": [{"weekly": {"days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "time": "12:00"}},
                       {"weekly": {"days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "time": "18:00"}}]}
            """#.utf8))
        var document = StudyTransfer.document(of: Study(slug: slug, name: "Arms \(slug)", now: Date()), surveys: [
            .init(name: "Registration", kind: .registration, position: 0, active: true, document: SampleSurveys.registration, schedule: nil),
            .init(name: "Mood", kind: .esm, position: 1, active: true, document: SampleSurveys.experienceSampling, schedule: nil),
            .init(name: "Practice", kind: .esm, position: 2, active: true, document: SampleSurveys.experienceSampling, schedule: practice),
        ])
        document.randomSampling = randomSampling
        document.arms = arms
        document.allocation = allocation
        return document
    }

    static func study(
        slug: String, arms: [StudyArm], allocation: ArmAllocationRule, randomSampling: Bool = true, on db: any Database
    ) async throws -> Study {
        try await StudyTransfer.importStudy(
            try document(slug: slug, arms: arms, allocation: allocation, randomSampling: randomSampling), on: db, now: Date())
    }

    /// Registers one participant with random registration answers; returns their id.
    static func register(_ slug: String, seed: UInt64, on db: any Database, now: Date = Date()) async throws -> UUID {
        var generator = Xoshiro256StarStar(seed: seed)
        let request = RegistrationRequest(
            study: slug, invitationCode: nil, consent: true, timezone: "Europe/London", settings: .standard, push: .none,
            registrationAnswers: SampleSurveys.registration.randomAnswers(using: &generator),
            device: DeviceInfo(model: "Test phone", os: "TestOS 1", appVersion: "1.0"))
        return try await RegistrationService.register(request, on: db, now: now).participantID
    }

    static func allocations(of study: Study, on db: any Database) async throws -> [ArmAllocation] {
        try await ArmAllocation.query(on: db).filter(\.$study.$id == study.requireID()).all()
    }

    /// Every complete block of every stratum holds each arm exactly `block_size × weight / total`
    /// times, positions 1…size once each, each participant's arm the block's at their position;
    /// only a stratum's last block may be incomplete. Returns the number of complete blocks.
    static func checkBlocks(_ rows: [ArmAllocation], arms: StudyArms) throws -> Int {
        let size = arms.allocation.blockSize ?? 0
        let expected = ArmAllocator.balancedContents(arms: arms.arms.map(\.name), weights: arms.arms.map(\.weight), blockSize: size).sorted()
        var complete = 0
        for (stratum, inStratum) in Dictionary(grouping: rows, by: { $0.stratum ?? "" }) {
            let blocks = Dictionary(grouping: inStratum, by: { $0.blockNumber ?? 0 })
            let last = blocks.keys.max() ?? 0
            guard Set(blocks.keys) == Set(1...max(last, 1)) else { throw FixtureError("stratum \(stratum): blocks \(blocks.keys.sorted())") }
            for (number, block) in blocks {
                let positions = block.compactMap(\.blockPosition).sorted()
                guard positions == Array(1...block.count) else { throw FixtureError("stratum \(stratum) block \(number): positions \(positions)") }
                for row in block {
                    let sequence = try JSONDecoder().decode([String].self, from: Data((row.blockSequence ?? "").utf8))
                    guard sequence.sorted() == expected, sequence[(row.blockPosition ?? 1) - 1] == row.arm else {
                        throw FixtureError("stratum \(stratum) block \(number): \(row.arm) is not at \(row.blockPosition ?? 0) of \(sequence)")
                    }
                }
                if block.count == size {
                    guard block.map(\.arm).sorted() == expected else { throw FixtureError("block \(number) unbalanced: \(block.map(\.arm))") }
                    complete += 1
                } else if number != last {
                    throw FixtureError("stratum \(stratum): block \(number) of \(block.count) is incomplete but not the last")
                }
            }
        }
        return complete
    }
}

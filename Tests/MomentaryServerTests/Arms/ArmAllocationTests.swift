import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Arm allocation", .serialized)
struct ArmAllocationTests {
    static let twoToOne = [StudyArm(name: "a", weight: 1, surveys: ["Mood"]), StudyArm(name: "b", weight: 2, surveys: ["Mood"])]

    @Test("blocked allocation over 1,000 registrations: every complete block of every stratum is exactly balanced")
    func blockedIsBalanced() async throws {
        try await withTestApp { app, _ in
            let study = try await ArmsFixture.study(
                slug: "blocked", arms: Self.twoToOne, allocation: .init(method: .blocked, blockSize: 6, stratifyBy: "gender"),
                randomSampling: false, on: app.db)
            for seed in 1...1_000 { _ = try await ArmsFixture.register("blocked", seed: UInt64(seed), on: app.db) }
            let rows = try await ArmsFixture.allocations(of: study, on: app.db)
            #expect(rows.count == 1_000)
            #expect(rows.allSatisfy { $0.method == "blocked" && $0.weights == #"{"a":1,"b":2}"# })
            #expect(Set(rows.compactMap(\.stratum)).count >= 3)  // the genders answered, and "" for none
            let complete = try ArmsFixture.checkBlocks(rows, arms: try #require(study.arms))
            // At most one incomplete block per stratum (5 strata at most).
            #expect(complete * 6 >= 1_000 - 5 * 5)
            // Each participant's arm is the one recorded.
            let participants = try await Participant.query(on: app.db).filter(\.$study.$id == study.requireID()).all()
            let recorded = Dictionary(uniqueKeysWithValues: rows.map { ($0.$participant.id, $0.arm) })
            #expect(participants.allSatisfy { $0.arm != nil && recorded[$0.id!] == $0.arm })
        }
    }

    @Test("simple allocation over 1,000 registrations: arm frequencies within the binomial bound")
    func simpleFollowsWeights() async throws {
        try await withTestApp { app, _ in
            let study = try await ArmsFixture.study(
                slug: "simple", arms: Self.twoToOne, allocation: .init(method: .simple), randomSampling: false, on: app.db)
            for seed in 1...1_000 { _ = try await ArmsFixture.register("simple", seed: UInt64(seed), on: app.db) }
            let rows = try await ArmsFixture.allocations(of: study, on: app.db)
            #expect(rows.count == 1_000)
            #expect(rows.allSatisfy { $0.method == "simple" && $0.blockNumber == nil && $0.stratum == nil })
            // Arm a: Binomial(1000, 1/3), mean 333.3, sd 14.9. Five standard deviations (±74) is a real
            // test of the weights (equal weights would give 500) and fails by chance with probability < 1e-6.
            let a = Double(rows.filter { $0.arm == "a" }.count)
            let n = 1_000.0, p = 1.0 / 3.0
            #expect(abs(a - n * p) <= 5 * (n * p * (1 - p)).squareRoot())
        }
    }

    @Test("concurrent registrations keep blocks balanced")
    func concurrentRegistrations() async throws {
        try await withTestApp { app, _ in
            let arms = [StudyArm(name: "a"), StudyArm(name: "b")]
            let study = try await ArmsFixture.study(
                slug: "concurrent", arms: arms, allocation: .init(method: .blocked, blockSize: 4), randomSampling: false, on: app.db)
            let db = app.db
            try await withThrowingTaskGroup(of: UUID.self) { group in
                for seed in 1...40 { group.addTask { try await ArmsFixture.register("concurrent", seed: UInt64(seed), on: db) } }
                for try await _ in group {}
            }
            let rows = try await ArmsFixture.allocations(of: study, on: app.db)
            #expect(rows.count == 40)
            #expect(try ArmsFixture.checkBlocks(rows, arms: try #require(study.arms)) == 10)
        }
    }

    @Test("a participant is planned, sent and may volunteer only their arm's surveys; the arm's alert text; status shows the arm only when the study says so")
    func armDecidesSurveysAndSchedules() async throws {
        try await withTestApp { app, _ in
            let arms = [
                StudyArm(name: "control", surveys: ["Mood"]),
                StudyArm(name: "practice", surveys: ["Practice"], randomSampling: false, fixedSchedules: ["Practice"], alertText: "Time to practise"),
            ]
            let study = try await ArmsFixture.study(slug: "arms", arms: arms, allocation: .init(method: .blocked, blockSize: 2), on: app.db)
            let surveys = try await Survey.query(on: app.db).filter(\.$study.$id == study.requireID()).all()
            let mood = try #require(surveys.first { $0.name == "Mood" }?.id)
            let practice = try #require(surveys.first { $0.name == "Practice" }?.id)
            var ids: [UUID] = []
            for seed in 1...4 { ids.append(try await ArmsFixture.register("arms", seed: UInt64(seed), on: app.db)) }
            let signalling = try #require(try await StudySignalling.load([study.requireID()], on: app.db)[study.requireID()])
            var seen: Set<String> = []
            for id in ids {
                let participant = try #require(try await Participant.find(id, on: app.db))
                let arm = try #require(participant.arm)
                seen.insert(arm)
                let beeps = try await Beep.query(on: app.db).filter(\.$participant.$id == id).filter(\.$status == .pending).all()
                #expect(!beeps.isEmpty)
                let volunteered = try await SurveyCatalog.volunteerSurvey(of: id, studyID: study.requireID(), on: app.db)
                if arm == "control" {
                    #expect(beeps.allSatisfy { $0.origin == .random && $0.$survey.id == mood })
                    #expect(volunteered?.id == mood)
                    #expect(signalling.alert(for: participant) == study.alertText)
                } else {
                    #expect(beeps.allSatisfy { $0.origin == .fixed && $0.$survey.id == practice })
                    #expect(volunteered?.id == practice)
                    #expect(signalling.alert(for: participant) == "Time to practise")
                }
                let status = try await ParticipantStatusService.status(of: participant, on: app.db, now: Date())
                #expect(status.arm == nil)
            }
            #expect(seen == ["control", "practice"])  // one block of two holds both

            var shown = try #require(study.arms)
            shown.showArmToParticipants = true
            study.setArms(shown)
            try await study.save(on: app.db)
            let participant = try #require(try await Participant.find(ids[0], on: app.db))
            #expect(try await ParticipantStatusService.status(of: participant, on: app.db, now: Date()).arm == participant.arm)
        }
    }
}

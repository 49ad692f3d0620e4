import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

@Suite("Arm rules, website and exports", .serialized)
struct ArmRulesTests {
    static let two = [StudyArm(name: "a"), StudyArm(name: "b")]

    @Test("the study document refuses arms that do not fit the study, each with its reason, and unknown keys by name")
    func documentValidation() throws {
        func problems(_ arms: [StudyArm]?, _ allocation: ArmAllocationRule?, languages: [String]? = nil) throws -> [String] {
            var document = try ArmsFixture.document(slug: "rules", arms: arms, allocation: allocation)
            document.languages = languages
            return document.problems()
        }
        #expect(try problems(Self.two, .init(method: .blocked, blockSize: 4, stratifyBy: "gender")).isEmpty)
        #expect(try problems([StudyArm(name: "a")], .init(method: .simple)).contains { $0.contains("at least two arms") })
        #expect(try problems([StudyArm(name: "a"), StudyArm(name: "A")], .init(method: .simple)).contains { $0.contains("used by another arm") })
        #expect(try problems([StudyArm(name: "a", weight: 0), StudyArm(name: "b")], .init(method: .simple)).contains { $0.contains("arms[0].weight") })
        #expect(try problems([StudyArm(name: "a", surveys: ["Nope"]), StudyArm(name: "b")], .init(method: .simple))
            .contains { $0.contains("“Nope” is not an active beep survey") })
        #expect(try problems([StudyArm(name: "a", surveys: ["Mood"], fixedSchedules: ["Practice"]), StudyArm(name: "b")], .init(method: .simple))
            .contains { $0.contains("not one of the arm's surveys") })
        #expect(try problems([StudyArm(name: "a", fixedSchedules: ["Mood"]), StudyArm(name: "b")], .init(method: .simple))
            .contains { $0.contains("with a fixed schedule") })
        #expect(try problems(Self.two, .init(method: .blocked, blockSize: 3)).contains { $0.contains("multiple of the arms' total weight (2)") })
        #expect(try problems(Self.two, .init(method: .blocked)).contains { $0.contains("block_size is needed") })
        #expect(try problems(Self.two, .init(method: .simple, blockSize: 4)).contains { $0.contains("only to the blocked method") })
        #expect(try problems(Self.two, .init(method: .blocked, blockSize: 2, stratifyBy: "shoe_size")).contains { $0.contains("“shoe_size” is not a question") })
        #expect(try problems(Self.two, nil).contains { $0.contains("arms need an allocation") })
        #expect(try problems(nil, .init(method: .simple)).contains { $0.contains("allocation is given but arms are not") })
        let untranslated = [StudyArm(name: "a", alertText: LocalizedText(byLanguage: ["en": "Now"])), StudyArm(name: "b")]
        #expect(try problems(untranslated, .init(method: .simple), languages: ["en", "de"]).contains { $0.contains("arms[0].alert_text has no text in de") })

        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(
            try ArmsFixture.document(slug: "rules", arms: Self.two, allocation: .init(method: .simple)))) as! [String: Any]
        json["allocation"] = ["method": "simple", "seed": 3]
        var arms = json["arms"] as! [[String: Any]]
        arms[1]["colour"] = "red"
        json["arms"] = arms
        #expect(throws: StudyDocument.UnknownFields.self) { try StudyDocument.decode(try JSONSerialization.data(withJSONObject: json)) }
        #expect(StudyDocument.unknownFields(in: try JSONSerialization.data(withJSONObject: json)) == ["allocation.seed", "arms[1].colour"])
    }

    @Test("arms survive export and import whole; a study without arms exports none of their keys")
    func roundTrip() async throws {
        try await withTestApp { app, _ in
            let arms = [StudyArm(name: "a", weight: 2, surveys: ["Mood"], randomSampling: false), StudyArm(name: "b", alertText: "Hi")]
            let study = try await ArmsFixture.study(slug: "trip", arms: arms, allocation: .init(method: .blocked, blockSize: 3), on: app.db)
            let exported = try await StudyTransfer.export(study, on: app.db)
            #expect(exported.arms == arms && exported.allocation == .init(method: .blocked, blockSize: 3) && exported.showArmToParticipants == false)
            let plain = try await StudyTransfer.importStudy(try ArmsFixture.document(slug: "plain", arms: nil, allocation: nil), on: app.db, now: Date())
            let text = String(decoding: try JSONEncoder().encode(try await StudyTransfer.export(plain, on: app.db)), as: UTF8.self)
            #expect(!text.contains("\"arms\"") && !text.contains("allocation") && !text.contains("show_arm"))
        }
    }

    @Test("the Arms page saves checked JSON and shows problems beside the field, storing nothing; reassignment is permission-checked, recorded, audited and replans")
    func websiteArmsAndReassignment() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let page = "/studies/study-a/arms"
            #expect(try await client.get(page).status == .ok)
            let bad = try await client.post(page, [("arms", #"{"arms": [{"name": "a", "weight": 1}, {"name": "b", "weight": 1, "surveys": ["Nope"]}], "allocation": {"method": "blocked", "block_size": 3}}"#)])
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.body.string.contains("arms-problems"))
            #expect(bad.body.string.contains("“Nope” is not an active beep survey"))
            #expect(bad.body.string.contains("multiple of the arms"))
            let unknown = try await client.post(page, [("arms", #"{"arms": [{"name": "a", "weight": 1, "colour": 2}], "allocation": {"method": "simple"}}"#)])
            #expect(unknown.status == .unprocessableEntity)
            #expect(unknown.body.string.contains("arms[0].colour"))
            #expect(try await Study.find(world.studyA.id, on: app.db)?.armsJSON == nil)
            let good = #"{"arms": [{"name": "a", "weight": 1}, {"name": "b", "weight": 1, "surveys": ["Feelings"]}], "allocation": {"method": "blocked", "block_size": 2}}"#
            #expect(try await client.post(page, [("arms", good)]).status == .seeOther)
            let study = try #require(try await Study.find(world.studyA.id, on: app.db))
            #expect(study.arms?.arms.map(\.name) == ["a", "b"])

            let participant = try #require(try await Participant.find(world.participantA, on: app.db))
            participant.arm = "a"
            try await participant.save(on: app.db)
            let armPage = "/studies/study-a/participants/\(world.participantA)/arm"
            #expect(try await client.get(armPage).status == .ok)
            #expect(try await client.post(armPage, [("arm", "zzz")]).status == .unprocessableEntity)
            #expect(try await client.post(armPage, [("arm", "b")]).status == .seeOther)
            #expect(try await Participant.find(world.participantA, on: app.db)?.arm == "b")
            let history = try await ArmAssignment.history(of: world.participantA, on: app.db)
            #expect(history.last.map { ($0.method, $0.previousArm, $0.researcherEmail, $0.arm) } ?? ("", nil, nil, "") == ("reassigned", "a", WebsiteWorld.developer, "b"))
            let audited = try await AuditEvent.query(on: app.db).filter(\.$action == "reassign participant arm").all()
            #expect(audited.map(\.outcome).contains("303"))
            #expect(try await client.get(armPage).body.string.contains("reassigned by \(WebsiteWorld.developer) from a"))

            // The observer may look but not reassign: 403, recorded, nothing changed.
            var observer = WebClient(app)
            _ = try await observer.signIn(WebsiteWorld.observer)
            #expect(try await observer.get(armPage).status == .ok)
            #expect(try await observer.post(armPage, [("arm", "a")]).status == .forbidden)
            #expect(try await Participant.find(world.participantA, on: app.db)?.arm == "b")
            #expect(try await AuditEvent.query(on: app.db).filter(\.$action == "reassign participant arm").all().map(\.outcome).contains("403"))
        }
    }

    @Test("every export with a participant column carries arm for a study with arms, and only then")
    func exportsCarryArm() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            func csv(_ format: ExportFormat) async throws -> String {
                try await exportText(format, study: "study-a", on: app.db)
            }
            for format in [ExportFormat.long, .wide, .context, .beeps] {
                #expect(!(try await csv(format)).split(whereSeparator: \.isNewline).first!.contains(",arm,"))
            }
            let study = try #require(try await Study.find(world.studyA.id, on: app.db))
            study.setArms(StudyArms(arms: Self.two, allocation: .init(method: .simple)))
            try await study.save(on: app.db)
            let participant = try #require(try await Participant.find(world.participantA, on: app.db))
            participant.arm = "b"
            try await participant.save(on: app.db)
            // WebsiteWorld's response has no answers, so the long table has its header alone.
            #expect(try await csv(.long).split(whereSeparator: \.isNewline).first!.contains("participant_label,arm,"))
            for format in [ExportFormat.wide, .context] {
                let lines = try await csv(format).split(whereSeparator: \.isNewline).map(String.init)
                #expect(lines[0].contains("participant_label,arm,"))
                #expect(lines.count > 1 && lines[1].contains(",b,"), "\(format): \(lines)")
            }
            #expect(try await csv(.beeps).split(whereSeparator: \.isNewline).first!.contains("participant_label,arm,"))
            #expect(try await csv(.json).contains(#""arm":"b""#))
        }
    }
}

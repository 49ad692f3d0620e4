import ArgumentParser
import Fluent
import Foundation
@testable import MomentaryServer
import Testing

@Suite("Signalling: beep now")
struct BeepCommandTests {
    private func runBeep(_ arguments: [String]) async -> (code: Int32, output: String, errors: String) {
        await runCommand(["beep"] + arguments)
    }

    /// A migrated data folder with one signalling participant, made by `makeParticipant`.
    private func participantIn(
        _ configuration: Configuration,
        _ makeParticipant: (SignallingFixture, any Database) async throws -> Participant
    ) async throws -> UUID {
        try await AppFactory.withApp(configuration) { app in
            try await app.migrateAtomically()
            let fixture = try await SignallingFixture.make(on: app.db, now: Date())
            return try await makeParticipant(fixture, app.db).requireID()
        }
    }

    @Test("beep now sends a test beep through the outbox, and the line appears in the file")
    func beepNowWritesOutbox() async throws {
        let data = TestScratch.file("momentary-beep")
        defer { try? FileManager.default.removeItem(at: data) }
        let configuration = try Configuration.load(environment: [:], dataDirectoryOverride: data.path)
        // Hours of 08:00–08:15 leave almost the whole day outside them: test beeps go out anyway.
        let participantID = try await participantIn(configuration) { fixture, db in
            try await fixture.participant(on: db, now: Date(), start: "08:00", end: "08:15")
        }

        let result = await runBeep(["now", "--participant", participantID.uuidString, "--data", data.path])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.contains(": sent via outbox (accepted)"), "\(result.output)")

        let text = try String(contentsOf: data.appendingPathComponent("push-outbox.jsonl"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 1)
        let line = try JSONDecoder().decode(OutboxLine.self, from: Data(try #require(lines.first).utf8))
        #expect(line.participantID == participantID)
        #expect(line.badge == 1)
        #expect(line.sound == "chime")
        try await AppFactory.withApp(configuration) { app in
            let beep = try #require(try await Beep.find(line.beepID, on: app.db))
            #expect(beep.origin == .test)
            #expect(beep.status == .sent)
            #expect(beep.$participant.id == participantID)
            let study = try #require(try await Study.find(beep.$study.id, on: app.db))
            #expect(line.alert == study.alertText)
        }
    }

    @Test("beep now names what is wrong: a malformed id, an unknown participant")
    func beepNowRejectsBadParticipants() async throws {
        let data = TestScratch.file("momentary-beep")
        defer { try? FileManager.default.removeItem(at: data) }
        let malformed = await runBeep(["now", "--participant", "nobody", "--data", data.path])
        #expect(malformed.code == 2)
        #expect(malformed.errors.contains("--participant must be a participant's label"))

        let unknown = UUID()
        let missing = await runBeep(["now", "--participant", unknown.uuidString, "--data", data.path])
        #expect(missing.code == 1)
        #expect(missing.errors.contains("No participant has the id \(unknown)"), "\(missing.errors)")
        let unknownLabel = await runBeep(["now", "--participant", "zzzzz", "--data", data.path])
        #expect(unknownLabel.code == 1)
        #expect(unknownLabel.errors.contains("No participant has the label ZZZZZ"), "\(unknownLabel.errors)")
    }

    @Test("beep now takes the participant's label, as the website shows it")
    func beepNowByLabel() async throws {
        let data = TestScratch.file("momentary-beep")
        defer { try? FileManager.default.removeItem(at: data) }
        let configuration = try Configuration.load(environment: [:], dataDirectoryOverride: data.path)
        let participantID = try await participantIn(configuration) { fixture, db in
            let participant = try await fixture.participant(on: db, now: Date())
            participant.label = "BCD23"
            try await participant.save(on: db)
            return participant
        }
        let result = await runBeep(["now", "--participant", "bcd23", "--data", data.path])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.contains("to participant \(participantID)"), "\(result.output)")
    }
}

import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryCLI
@testable import MomentaryServer
import Testing

/// The command-line participant says truthfully what it did and watches the right outbox.
@Suite("momentary participant")
struct ParticipantCommandTests {
    @Test("listen watches the outbox of the data directory it is given, as the server writes it")
    func listenFollowsTheDataDirectory() throws {
        let listen = try ParticipantCommand.Listen.parse(["--data", "/srv/momentary-data"])
        if ProcessInfo.processInfo.environment["MOMENTARY_PUSH_OUTBOX"] == nil {
            #expect(listen.outboxPath == "/srv/momentary-data/push-outbox.jsonl")
        }
        let explicit = try ParticipantCommand.Listen.parse(["--outbox", "/tmp/box.jsonl", "--data", "/srv/x"])
        #expect(explicit.outboxPath == "/tmp/box.jsonl")
    }

    @Test("answering without --beep says which waiting beep the response answered")
    func answerNamesTheWaitingBeep() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (_, registration) = try await APIFixture.register(on: server)
            let folder = try TestScratch.folder("cli")
            defer { try? FileManager.default.removeItem(at: folder) }
            let stateURL = folder.appendingPathComponent("participant.json")
            let state = ParticipantState(serverURL: server.baseURL, registration: registration)
            try state.save(to: stateURL)
            let responder = ParticipantResponder(participant: state, stateURL: stateURL)

            let volunteered = try await responder.answer(beepID: nil, answers: nil)
            #expect(volunteered.hasPrefix("Answered a volunteered survey"), "\(volunteered)")
            let beep = try await APIFixture.deliveredBeep(for: registration.participantID, minutesAgo: 3, on: server.db)
            let line = try await responder.answer(beepID: nil, answers: nil)
            #expect(line.hasPrefix("Answered the waiting beep \(try beep.requireID().uuidString.lowercased())"), "\(line)")
            #expect(try await Beep.find(beep.id, on: server.db)?.status == .answered)
        }
    }

    @Test("a test beep to a participant without push says it was not delivered, whatever the development outbox took")
    func beepNowWithoutPush() {
        let report = TestBeepReport(
            beepID: UUID(), participantID: UUID(), channel: "none", status: "sent", outcome: "accepted", reason: nil)
        #expect(report.line.hasSuffix(": not delivered: no push channel (only written to the development outbox)"), "\(report.line)")
        #expect(!report.accepted, "`beep now` fails for it")
        let pushed = TestBeepReport(
            beepID: UUID(), participantID: UUID(), channel: "webpush", status: "sent", outcome: "accepted", reason: nil)
        #expect(pushed.line.hasSuffix(": sent via webpush (accepted)") && pushed.accepted)
    }
}

import Foundation
import MomentaryClient
import MomentaryCore
import Testing

@Suite("Participant state")
struct ParticipantStateTests {
    @Test("the state round-trips through a file only its owner can read")
    func saveAndLoad() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("nested/participant.json")
        #expect(try ParticipantState.load(from: file) == nil)

        let registration = RegistrationResponse(participantID: UUID(), secret: "abcdefghij0123456789",
                                                study: StudySummary(slug: "mappiness", name: "Mappiness", scheduling: .server))
        let state = ParticipantState(serverURL: URL(string: "http://127.0.0.1:8080")!, registration: registration,
                                     registeredAt: Date(timeIntervalSince1970: 1_774_772_040))
        try state.save(to: file)
        #expect(try ParticipantState.load(from: file) == state)
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)

        try ParticipantState.remove(at: file)
        #expect(try ParticipantState.load(from: file) == nil)
    }

    @Test("a damaged state file is reported with its path")
    func damagedFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("participant.json")
        try Data("{".utf8).write(to: file)
        #expect(throws: ParticipantStateError.self) { try ParticipantState.load(from: file) }
    }
}

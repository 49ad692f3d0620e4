import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

@Suite("Website: participant status and data deletion")
struct ParticipantAdministrationTests {
    static func pendingBeeps(_ id: UUID, _ db: any Database) async throws -> Int {
        try await Beep.query(on: db).filter(\.$participant.$id == id).filter(\.$status == .pending).count()
    }

    @Test("restricting cancels a participant's beeps, reinstating plans them again; the invitee follows")
    func statusChanges() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let id = world.participantA
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/study-a/participants")

            let reinstated = try await client.post("/studies/study-a/participants/\(id)/status", [("status", "restricted")])
            #expect(reinstated.status == .seeOther)
            #expect(try await Participant.find(id, on: app.db)?.status == .restricted)
            #expect(try await Self.pendingBeeps(id, app.db) == 0)

            let back = try await client.post("/studies/study-a/participants/\(id)/status", [("status", "participating")])
            #expect(back.status == .seeOther)
            #expect(try await Participant.find(id, on: app.db)?.status == .participating)
            #expect(try await Self.pendingBeeps(id, app.db) > 0, "reinstated participants are planned again")
            let page = try await client.get(try #require(back.headers.first(name: .location)))
            #expect(page.body.string.contains(": participating, 1 response stored."))

            let bad = try await client.post("/studies/study-a/participants/\(id)/status", [("status", "paused")])
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.body.string.contains("Choose a status"))
        }
    }

    @Test("a participant who withdrew in the app and is reinstated on the website is beeped again")
    func reinstateAfterWithdrawal() async throws {
        try await withTestApp { app, configuration in
            let world = try await WebsiteWorld.make(on: app.db)
            let id = world.participantA
            let participant = try #require(try await Participant.find(id, on: app.db))
            try await ParticipantSettingsService.withdraw(
                participant, deleteData: false, blobs: BlobStore(dataDirectory: configuration.dataDirectory), on: app.db, now: Date())
            #expect(try await Participant.find(id, on: app.db)?.status == .withdrawn)
            #expect(try await Self.pendingBeeps(id, app.db) == 0)

            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/study-a/participants")
            let back = try await client.post("/studies/study-a/participants/\(id)/status", [("status", "participating")])
            #expect(back.status == .seeOther)
            #expect(try await Self.pendingBeeps(id, app.db) > 0, "withdrawal did not mark the push token as broken")
        }
    }

    @Test("deleting data needs the confirmation box, then removes the responses and keeps the participant")
    func deletion() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/study-a/participants")
            let path = "/studies/study-a/participants/\(world.participantA)/delete-data"

            let unconfirmed = try await client.post(path)
            #expect(unconfirmed.status == .unprocessableEntity)
            #expect(unconfirmed.body.string.contains("Nothing was deleted"))
            #expect(try await SurveyResponse.query(on: app.db).count() == 2)

            let deleted = try await client.post(path, [("confirm", "yes")])
            #expect(deleted.status == .seeOther)
            #expect(try await SurveyResponse.find(world.responseA, on: app.db) == nil)
            #expect(try await SurveyResponseContext.query(on: app.db).filter(\.$response.$id == world.responseA).count() == 0)
            #expect(try await SurveyResponse.find(world.responseB, on: app.db) != nil, "another study's data is untouched")
            #expect(try await Participant.find(world.participantA, on: app.db) != nil)
        }
    }

    /// A photo of participant A's response on disk and in `blobs`, and one sent beep.
    static func photoAndBeep(_ world: WebsiteWorld, store: BlobStore, on db: any Database) async throws -> (path: String, beep: UUID) {
        let path = "photos/erase-\(UUID().uuidString).jpg"
        try await PhotoFixture.store(Data([0xFF, 0xD8, 0xFF, 0xD9]), at: path, participant: world.participantA, response: world.responseA, in: store, on: db)
        let beep = try await APIFixture.deliveredBeep(for: world.participantA, minutesAgo: 60, status: .expired, on: db)
        return (path, try beep.requireID())
    }

    /// Participant A joined with study A's first invitation code (their label), as an invited participant does.
    static func invited(_ world: WebsiteWorld, on db: any Database) async throws -> (Participant, Invitee) {
        let participant = try #require(try await Participant.find(world.participantA, on: db))
        let invitee = try #require(try await Invitee.query(on: db).filter(\.$code == world.codesA[0]).first())
        participant.$invitee.id = try invitee.requireID()
        participant.label = invitee.code
        try await participant.save(on: db)
        return (participant, invitee)
    }

    @Test("erasing a participant without keeping history removes them, their beeps, answers and files; the code stays used")
    func eraseEverything() async throws {
        try await withTestApp { app, configuration in
            let world = try await WebsiteWorld.make(on: app.db)
            let store = BlobStore(dataDirectory: configuration.dataDirectory)
            let (_, invitee) = try await Self.invited(world, on: app.db)
            let (path, _) = try await Self.photoAndBeep(world, store: store, on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/study-a/participants")
            let erase = "/studies/study-a/participants/\(world.participantA)/erase"

            let unconfirmed = try await client.post(erase, [("history", "delete")])
            #expect(unconfirmed.status == .unprocessableEntity)
            #expect(unconfirmed.body.string.contains("Nothing was erased"))
            #expect(try await Participant.find(world.participantA, on: app.db) != nil)

            let erased = try await client.post(erase, [("history", "delete"), ("confirm", "yes")])
            #expect(erased.status == .seeOther)
            #expect(try await Participant.find(world.participantA, on: app.db) == nil)
            #expect(try await Beep.query(on: app.db).filter(\.$participant.$id == world.participantA).count() == 0)
            #expect(try await SurveyResponse.find(world.responseA, on: app.db) == nil)
            #expect(try await Blob.query(on: app.db).filter(\.$participant.$id == world.participantA).count() == 0)
            #expect(!FileManager.default.fileExists(atPath: store.root.appendingPathComponent(path).path), "the photo file is gone")
            let code = try #require(try await Invitee.find(invitee.requireID(), on: app.db))
            #expect(code.status == .withdrawn, "the code cannot be handed out again")
            #expect(try await SurveyResponse.find(world.responseB, on: app.db) != nil, "another study's data is untouched")
            let page = try await client.get(try #require(erased.headers.first(name: .location)))
            #expect(page.body.string.contains("erased"))
        }
    }

    @Test("erasing but keeping compliance history leaves an anonymous participant with beeps only")
    func eraseKeepingHistory() async throws {
        try await withTestApp { app, configuration in
            let world = try await WebsiteWorld.make(on: app.db)
            let store = BlobStore(dataDirectory: configuration.dataDirectory)
            let (participant, invitee) = try await Self.invited(world, on: app.db)
            participant.pushToken = "00ff00ff"
            participant.deviceModel = "Test phone"
            participant.downloadTokenHash = "abc"
            try await participant.save(on: app.db)
            let oldSecret = participant.secretHash
            let (path, beepID) = try await Self.photoAndBeep(world, store: store, on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/study-a/participants")

            let unknown = try await client.post("/studies/study-a/participants/\(world.participantA)/erase", [("history", "maybe"), ("confirm", "yes")])
            #expect(unknown.status == .unprocessableEntity)
            let erased = try await client.post("/studies/study-a/participants/\(world.participantA)/erase",
                                               [("history", "keep"), ("confirm", "yes")])
            #expect(erased.status == .seeOther)
            let shell = try #require(try await Participant.find(world.participantA, on: app.db))
            #expect(shell.erasedAt != nil)
            #expect(shell.status == .withdrawn)
            #expect(shell.$invitee.id == nil && shell.label != invitee.code, "nothing links the history to the invitation code")
            #expect(shell.pushToken == nil && shell.pushKeys == nil && shell.deviceModel == nil && shell.downloadTokenHash == nil)
            #expect(shell.secretHash != oldSecret, "the app's credentials no longer work")
            #expect(try await Beep.find(beepID, on: app.db)?.status == .expired, "compliance history stays")
            #expect(try await Beep.query(on: app.db).filter(\.$participant.$id == world.participantA).filter(\.$status == .pending).count() == 0)
            #expect(try await SurveyResponse.query(on: app.db).filter(\.$participant.$id == world.participantA).count() == 0)
            #expect(!FileManager.default.fileExists(atPath: store.root.appendingPathComponent(path).path))
            #expect(try await Invitee.find(invitee.requireID(), on: app.db)?.status == .withdrawn)

            let page = try await client.get(try #require(erased.headers.first(name: .location)))
            #expect(page.body.string.contains("an anonymous history of their beeps was kept"))
            #expect(page.body.string.contains("<td>Erased</td>"))
            let reinstate = try await client.post("/studies/study-a/participants/\(world.participantA)/status", [("status", "participating")])
            #expect(reinstate.status == .conflict, "an erased participant cannot be beeped again")
            #expect(try await Self.pendingBeeps(world.participantA, app.db) == 0)
            let deleteHistory = try await client.post("/studies/study-a/participants/\(world.participantA)/erase", [("history", "delete"), ("confirm", "yes")])
            #expect(deleteHistory.status == .seeOther, "the anonymous history can be deleted later")
            #expect(try await Participant.find(world.participantA, on: app.db) == nil)

            let bad = try await client.post("/studies/study-a/participants/\(world.participantB)/erase", [("history", "keep"), ("confirm", "yes")])
            #expect(bad.status == .notFound, "a participant of another study cannot be erased through this one")
        }
    }
}

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
}

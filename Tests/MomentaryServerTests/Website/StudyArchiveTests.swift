import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

@Suite("Website: archiving and deleting a study")
struct StudyEndPageTests {
    @Test("an archived study takes no one new and sends no beeps, keeps its data for the exports, and can be reopened")
    func archiveAndReopen() async throws {
        try await withSignedInDeveloper { app, world, client in
            let studyID = try world.studyA.requireID()
            let pending = Beep()
            pending.$participant.id = world.participantA
            pending.$study.id = studyID
            pending.origin = .random
            pending.sequence = 1
            pending.scheduledAt = Date().addingTimeInterval(3_600)
            pending.localDate = "2026-11-28"
            pending.status = .pending
            pending.createdAt = Date()
            try await pending.save(on: app.db)

            #expect(try await client.get("/studies/study-a/end").body.string.contains("Archive the study"))
            let unconfirmed = try await client.post("/studies/study-a/archive", [("action", "archive")])
            #expect(unconfirmed.status == .unprocessableEntity && unconfirmed.body.string.contains("Tick the box"))
            #expect(try await Study.find(studyID, on: app.db)?.archivedAt == nil)

            #expect(try await client.post("/studies/study-a/archive", [("action", "archive"), ("confirm", "yes")]).status == .seeOther)
            #expect(try await Study.find(studyID, on: app.db)?.archivedAt != nil)
            #expect(try await Beep.find(pending.requireID(), on: app.db)?.status == .cancelled, "the planned beep is cancelled")
            #expect(try await client.get("/studies").body.string.contains("Study A</a> (archived)"))

            try await app.testing().test(.GET, "api/v1/studies/study-a") { response in
                let info = try WireCoding.makeDecoder().decode(StudyInfo.self, from: Data(buffer: response.body))
                #expect(info.archived && !info.ready)
            }
            let registration = try WireCoding.makeEncoder().encode(APIFixture.registration(study: "study-a", invitation: world.codesA[0]))
            try await app.testing().test(.POST, "api/v1/participants", headers: ["Content-Type": "application/json"], body: ByteBuffer(data: registration)) { response in
                #expect(response.status == .conflict)
                #expect(response.body.string.contains(#""code":"study_archived""#) && response.body.string.contains("has ended"))
            }
            #expect(try await client.get("/studies/study-a/export/download?format=long").status == .ok, "exports keep working")

            #expect(try await client.post("/studies/study-a/archive", [("action", "reopen")]).status == .seeOther)
            #expect(try await Study.find(studyID, on: app.db)?.archivedAt == nil)
            #expect(try await AuditEvent.query(on: app.db).filter(\.$action == "archive or reopen study").count() == 3)
        }
    }

    @Test("deleting takes the slug typed; the study goes with its participants, answers and files; a role that may not delete is refused")
    func delete() async throws {
        try await withSignedInDeveloper { app, world, client in
            let studyID = try world.studyA.requireID()
            let store = BlobStore(dataDirectory: app.momentaryConfiguration.dataDirectory)
            let photo = try await PhotoFixture.store(
                TestJPEG.make([9]), at: "photos/\(world.participantA.uuidString.lowercased())/p.jpg",
                participant: world.participantA, response: world.responseA, in: store, on: app.db)
            let page = try await client.get("/studies/study-a/end").body.string
            #expect(page.contains("Type the study's slug"))

            var researcher = WebClient(app)
            _ = try await researcher.signIn(WebsiteWorld.researcher)
            _ = try await researcher.get("/studies/study-a/end")
            #expect(try await researcher.post("/studies/study-a/delete", [("slug", "study-a")]).status == .forbidden)

            let wrong = try await client.post("/studies/study-a/delete", [("slug", "study-b")])
            #expect(wrong.status == .unprocessableEntity && wrong.body.string.contains("” is not this study"))
            #expect(try await Study.find(studyID, on: app.db) != nil)

            let deleted = try await client.post("/studies/study-a/delete", [("slug", "study-a")])
            #expect(deleted.status == .seeOther)
            #expect(try await Study.find(studyID, on: app.db) == nil)
            #expect(try await Participant.query(on: app.db).filter(\.$study.$id == studyID).count() == 0)
            #expect(try await SurveyResponse.find(world.responseA, on: app.db) == nil)
            #expect(try await Blob.find(photo.requireID(), on: app.db) == nil)
            #expect(!FileManager.default.fileExists(atPath: store.root.appendingPathComponent(photo.storagePath).path), "the photo file is gone")
            #expect(try await SurveyResponse.find(world.responseB, on: app.db) != nil, "the other study is untouched")
            let list = try await client.get(try #require(deleted.headers.first(name: .location))).body.string
            #expect(list.contains("The study “Study A” was deleted."))
            #expect(try await AuditEvent.query(on: app.db).filter(\.$action == "delete study").filter(\.$outcome == "303").count() == 1)
        }
    }
}

@Suite("Website: the study overview")
struct StudyOverviewPageTests {
    @Test("a new study's overview says what is not there yet instead of praising it")
    func emptyStudy() async throws {
        try await withSignedInDeveloper { app, _, client in
            _ = try await StudyTransfer.create(slug: "fresh", name: "Fresh", invitationOnly: false, deviceScheduled: false, on: app.db, now: Date())
            let page = try await client.get("/studies/fresh").body.string
            #expect(page.contains("No one is taking part yet."))
            #expect(page.contains("Last beep sent: none yet") && page.contains("No beep has been sent yet."))
            #expect(!page.contains("has answered in the last") && !page.contains("No beep failed"))
            #expect(page.contains("<th scope=\"col\">Beeps scheduled</th>"))
        }
    }
}

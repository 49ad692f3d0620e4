import Fluent
import Foundation
@testable import MomentaryServer
import MomentaryCore
import Testing
import Vapor

/// Researchers writing to participants on the website: each participant gets the message in the
/// language they chose, announced by one push, listed as sent and read, exported as the
/// `messages` table and erased with the participant.
@Suite("Messages on the website", .serialized)
struct MessageWebsiteTests {
    private static func setUp(_ app: Application, _ world: WebsiteWorld) async throws -> (german: Participant, gone: Participant) {
        world.studyA.languagesJSON = #"["en","de"]"#
        try await world.studyA.save(on: app.db)
        let german = try await WebsiteWorld.participant(in: world.studyA, label: "DEUTS", on: app.db)
        german.language = "de"
        try await german.save(on: app.db)
        let gone = try await WebsiteWorld.participant(in: world.studyA, label: "GONE1", on: app.db)
        gone.status = .withdrawn
        try await gone.save(on: app.db)
        return (german, gone)
    }

    @Test("a message to everyone reaches each participant once, in their language, and is pushed, listed, exported and erased")
    func writeToEveryone() async throws {
        try await withSignedInDeveloper { app, world, client in
            let outbox = WebsiteWorld.installSignalling(app)
            let (german, gone) = try await Self.setUp(app, world)

            let page = try await client.get("/studies/study-a/messages")
            #expect(page.status == .ok)
            #expect(page.body.string.contains("Message in German (de)"))
            #expect(page.body.string.contains("This reaches 2 participants"), "the withdrawn participant and study B's are not counted")

            let missing = try await client.post("/studies/study-a/messages", [("text_en", "Your phone has not uploaded for two days."), ("status", "")])
            #expect(missing.status == .unprocessableEntity)
            #expect(missing.body.string.contains("Write the message in German (de)"))
            #expect(try await ParticipantMessage.query(on: app.db).count() == 0, "nothing is stored when a language is missing")

            let sent = try await client.post("/studies/study-a/messages", [
                ("text_en", "Your phone has not uploaded for two days."), ("text_de", "Ihr Telefon hat seit zwei Tagen nichts hochgeladen."),
                ("status", ""), ("q", ""), ("quiet", ""), ("participant", ""),
            ])
            #expect(sent.status == .seeOther)
            #expect(sent.headers.first(name: .location)?.contains("sent=2") == true)
            let rows = try await ParticipantMessage.query(on: app.db).all()
            #expect(rows.count == 2)
            #expect(Set(rows.map(\.$participant.id)) == [world.participantA, try german.requireID()])
            #expect(!rows.contains { $0.$participant.id == (try? gone.requireID()) })
            let toGerman = try #require(rows.first { $0.$participant.id == german.id })
            #expect(toGerman.text == "Ihr Telefon hat seit zwei Tagen nichts hochgeladen." && toGerman.language == "de")
            #expect(Set(rows.map(\.sendID)).count == 1 && rows.allSatisfy { $0.sentBy == WebsiteWorld.developer && $0.pushState == .pending })

            let dispatcher = try #require(app.signalling.dispatcher)
            #expect(try await dispatcher.runCycle().messagesSent == 2)
            #expect(try await dispatcher.runCycle().messagesSent == 0, "a message is pushed once")
            let lines = try String(contentsOfFile: outbox, encoding: .utf8).split(separator: "\n")
                .map { try JSONDecoder().decode(OutboxLine.self, from: Data($0.utf8)) }
            #expect(lines.count == 2 && lines.allSatisfy { $0.beepID == nil })
            #expect(Set(lines.compactMap(\.messageID)) == Set(rows.compactMap(\.id)))
            #expect(lines.contains { $0.alert == "Ihr Telefon hat seit zwei Tagen nichts hochgeladen." })
            #expect(try await ParticipantMessage.query(on: app.db).filter(\.$pushState == .sent).count() == 2)

            let listed = try await client.get("/studies/study-a/messages")
            #expect(listed.body.string.contains("Your phone has not uploaded for two days."))
            let conversation = try await client.get("/studies/study-a/participants/\(try german.requireID())/messages")
            #expect(conversation.status == .ok)
            #expect(conversation.body.string.contains("Ihr Telefon hat seit zwei Tagen nichts hochgeladen."))
            #expect(conversation.body.string.contains("notified; not read yet"))
            let otherStudy = try await client.get("/studies/study-b/participants/\(try german.requireID())/messages")
            #expect(otherStudy.status == .notFound, "a participant is reached only through their own study")

            let export = try await client.get("/studies/study-a/export/download?format=messages")
            #expect(export.status == .ok)
            let table = try CSVReader.rows(export.body.string).rows
            #expect(table.count == 2)
            #expect(table.allSatisfy { $0["from"] == "researchers" && $0["push_state"] == "sent" && $0["sent_by"] == WebsiteWorld.developer })
            #expect(table.contains { $0["participant_label"] == "DEUTS" && $0["language"] == "de" && $0["sent_at_local"]?.isEmpty == false })

            let studyA = world.studyA
            try await ParticipantAdministration.erase(german, history: .keep, blobs: BlobStore(dataDirectory: try TestScratch.folder("message-blobs")), on: app.db, now: Date())
            let left = try await ParticipantMessage.query(on: app.db).filter(\.$study.$id == studyA.requireID()).all()
            #expect(left.map(\.$participant.id) == [world.participantA], "the erased participant's messages go with them")
        }
    }

    @Test("one participant by label, a filter with no one in it, and researchers without the permission")
    func audiencesAndPermissions() async throws {
        try await withSignedInDeveloper { app, world, client in
            WebsiteWorld.installSignalling(app)
            let (german, _) = try await Self.setUp(app, world)
            let both = [("text_en", "Please open the app."), ("text_de", "Bitte öffnen Sie die App.")]
            _ = try await client.get("/studies/study-a/messages")  // the form's token

            let one = try await client.post("/studies/study-a/messages", both + [("participant", "deuts")])
            #expect(one.status == .seeOther)
            #expect(try await ParticipantMessage.query(on: app.db).all().map(\.$participant.id) == [try german.requireID()])

            let gone = try await client.post("/studies/study-a/messages", both + [("participant", "GONE1")])
            #expect(gone.status == .unprocessableEntity, "a withdrawn participant gets nothing")
            let nobody = try await client.post("/studies/study-a/messages", both + [("q", "ZZZZZ")])
            #expect(nobody.status == .unprocessableEntity)
            #expect(nobody.body.string.contains("No participant matches"))
            let badFilter = try await client.post("/studies/study-a/messages", both + [("quiet", "many")])
            #expect(badFilter.status == .unprocessableEntity)
            #expect(badFilter.body.string.contains("No answer in"))
            let tooLong = try await client.post("/studies/study-a/messages", [("text_en", String(repeating: "x", count: 2_001)), ("text_de", "kurz")])
            #expect(tooLong.status == .unprocessableEntity)
            #expect(tooLong.body.string.contains("at most 2000"))

            let direct = try await client.post("/studies/study-a/participants/\(world.participantA)/messages", both)
            #expect(direct.status == .seeOther)
            #expect(try await ParticipantMessage.query(on: app.db).count() == 2)

            for email in [WebsiteWorld.researcher, WebsiteWorld.observer] {
                var other = WebClient(app)
                _ = try await other.signIn(email)
                _ = try await other.get("/studies")
                #expect(other.csrf != nil)
                let refused = try await other.post("/studies/study-a/messages", both)
                #expect(refused.status == .forbidden, "\(email) may not write to participants")
            }
            #expect(try await ParticipantMessage.query(on: app.db).count() == 2)
        }
    }

    @Test("the roles that may change a participant's status may write to participants after migrating")
    func permissionGranted() async throws {
        try await withTestApp { app, _ in
            let developer = try await ResearcherAccounts.roleID("Developer", on: app.db)
            let researcher = try await ResearcherAccounts.roleID("Researcher", on: app.db)
            let granted = try await RolePermission.query(on: app.db).filter(\.$permission == Permission.messageParticipants.rawValue).all()
            #expect(granted.map(\.$role.id) == [developer])
            #expect(!granted.contains { $0.$role.id == researcher })
        }
    }
}

/// A message's push is claimed before it is attempted; one a stopped worker left claimed is taken
/// over after two minutes, and never by two workers at once.
@Suite("Message pushes as claimed work", .serialized)
struct MessagePushClaimTests {
    @Test("a claim is exclusive until it is stale, then another worker takes it over")
    func claims() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let now = Date()
            let sent = try await MessageService.send("Hello", to: .participant(id: world.participantA), in: world.studyA, by: "dev@example.org", now: now, on: app.db)
            #expect(sent.recipients == 1)
            let first = try await MessagePushStore.claimDue(at: now, limit: 10, worker: "a", on: app.db)
            #expect(first.count == 1 && first[0].text == "Hello")
            #expect(try await MessagePushStore.claimDue(at: now.addingTimeInterval(60), limit: 10, worker: "b", on: app.db).isEmpty, "claimed by a")
            let takenOver = try await MessagePushStore.claimDue(at: now.addingTimeInterval(MessagePushStore.stuckAfter + 1), limit: 10, worker: "b", on: app.db)
            #expect(takenOver.map(\.id) == first.map(\.id), "a stopped worker's claim is taken over")
            try await MessagePushStore.record(first[0].id, state: .sent, outcome: "accepted", reason: nil, at: now, on: app.db)
            #expect(try await MessagePushStore.claimDue(at: now.addingTimeInterval(3_600), limit: 10, worker: "c", on: app.db).isEmpty, "recorded: done")
            let row = try #require(try await ParticipantMessage.find(first[0].id, on: app.db))
            #expect(row.pushState == .sent && row.pushedAt != nil)
        }
    }
}

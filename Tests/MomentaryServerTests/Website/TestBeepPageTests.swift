import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

@Suite("Website: send test beep")
struct TestBeepPageTests {
    @Test("a test beep from the participants page reaches the outbox and the page shows how it went")
    func sendsAndReports() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let outbox = WebsiteWorld.installSignalling(app)
            defer { try? FileManager.default.removeItem(atPath: outbox) }
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let page = try await client.get("/studies/study-a/participants")
            #expect(page.body.string.contains("/participants/\(world.participantA)/test-beep"))

            let sent = try await client.post("/studies/study-a/participants/\(world.participantA)/test-beep")
            #expect(sent.status == .seeOther)
            let beep = try #require(try await Beep.query(on: app.db).filter(\.$origin == .test).first())
            #expect(beep.$participant.id == world.participantA)
            #expect(beep.status == .sent)
            let line = try String(contentsOfFile: outbox, encoding: .utf8)
            #expect(line.contains(try beep.requireID().uuidString))

            let location = try #require(sent.headers.first(name: .location))
            let report = try await client.get(location)
            #expect(report.body.string.contains("Test beep to"))
            // The participant registered without push: the outbox took the beep, the participant did not.
            #expect(report.body.string.contains(": not delivered: no push channel (only written to the development outbox)"))
        }
    }

    @Test("without a signaller, or for a participant of another study, nothing is sent and the reason is shown")
    func refusals() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/study-a/participants")
            let off = try await client.post("/studies/study-a/participants/\(world.participantA)/test-beep")
            #expect(off.status == .serviceUnavailable)
            #expect(off.body.string.contains("Signalling is not running"))
            WebsiteWorld.installSignalling(app)
            let stranger = try await client.post("/studies/study-a/participants/\(world.participantB)/test-beep")
            #expect(stranger.status == .notFound)
            #expect(try await Beep.query(on: app.db).count() == 0)
        }
    }
}

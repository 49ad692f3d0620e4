import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// Deleting data, erasing and restricting through the research API: only with the permission,
/// only when confirmed, and then exactly what the website's buttons do.
@Suite("The research API: deleting, erasing, restricting", .serialized)
struct ResearchAPIRemovalTests {
    private func post(_ app: Application, _ path: String, token: String, json: String? = nil) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        headers.bearerAuthorization = BearerAuthorization(token: token)
        if json != nil { headers.contentType = .json }
        return try await app.testing().sendRequest(.POST, "/api/v1/research/studies/study-a/" + path, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    private func token(_ email: String, on db: any Database) async throws -> String {
        let researcher = try #require(try await Researcher.query(on: db).filter(\.$email == email).first())
        return try await AccessTokens.create(
            for: researcher, name: "removal", studySlugs: [], expiresInDays: nil, readOnly: false, triggersBeeps: false, on: db, now: Date()).secret
    }

    @Test("delete-data and erase need the permission and a confirmation; restrict stops a code's participant")
    func removal() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let participant = try #require(try await Participant.find(world.participantA, on: app.db))
            participant.label = "KEEP1"
            try await participant.save(on: app.db)
            let developer = try await self.token(WebsiteWorld.developer, on: app.db)
            let researcher = try await self.token(WebsiteWorld.researcher, on: app.db)

            #expect(try await post(app, "participants/KEEP1/delete-data", token: researcher, json: #"{"confirm": true}"#).status == .forbidden)
            #expect(try await post(app, "participants/KEEP1/delete-data", token: developer).status == .unprocessableEntity)
            #expect(try await post(app, "participants/KEEP1/delete-data", token: developer, json: #"{"confirm": false}"#).status == .unprocessableEntity)
            #expect(try await post(app, "participants/KEEP1/delete-data", token: developer, json: #"{"confirm": "yes"}"#).status == .badRequest)
            #expect(try await SurveyResponse.find(world.responseA, on: app.db) != nil, "nothing is deleted unconfirmed")
            let deleted = try await post(app, "participants/keep1/delete-data", token: developer, json: #"{"confirm": true}"#)
            #expect(deleted.status == .ok && deleted.body.string.contains(#""deleted_responses":1"#))
            #expect(try await SurveyResponse.find(world.responseA, on: app.db) == nil)
            #expect(try await Participant.find(world.participantA, on: app.db) != nil, "the participant stays")

            #expect(try await post(app, "participants/KEEP1/erase", token: developer, json: #"{"confirm": true}"#).status == .unprocessableEntity)
            #expect(try await post(app, "participants/KEEP1/erase", token: developer, json: #"{"history": "keep"}"#).status == .unprocessableEntity)
            #expect(try await post(app, "participants/KEEP1/erase", token: researcher, json: #"{"history": "keep", "confirm": true}"#).status == .forbidden)
            let erased = try await post(app, "participants/KEEP1/erase", token: developer, json: #"{"history": "keep", "confirm": true}"#)
            #expect(erased.status == .ok)
            let kept = try #require(try await Participant.find(world.participantA, on: app.db))
            #expect(kept.erasedAt != nil && kept.status == .withdrawn && kept.label != "KEEP1", "an anonymous participant with a fresh label stays")

            let code = world.codesA[0]
            let invited = try await post(app, "invitees/\(code.lowercased())/restrict", token: developer)
            #expect(invited.status == .ok && invited.body.string.contains("restricted"))
            #expect(try await Invitee.query(on: app.db).filter(\.$code == code).first()?.status == .restricted)
            #expect(try await post(app, "invitees/NOSUCH/restrict", token: developer).status == .notFound)
            #expect(try await post(app, "invitees/\(world.codeB)/restrict", token: developer).status == .notFound, "another study's code is not this study's")
        }
    }
}

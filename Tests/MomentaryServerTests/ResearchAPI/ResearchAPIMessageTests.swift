import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// Messages through the research API: the website's rules (every language, an audience that
/// reaches someone, the permission), and one sending per Idempotency-Key.
@Suite("The research API: messages to participants", .serialized)
struct ResearchAPIMessageTests {
    private struct Answer: Decodable {
        let send_id: UUID
        let recipients: Int
        let without_push: Int
        let repeated: Bool
    }

    private func post(_ app: Application, token: String, json: String, key: String? = nil, study: String = "study-a") async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        headers.bearerAuthorization = BearerAuthorization(token: token)
        headers.contentType = .json
        if let key { headers.add(name: "Idempotency-Key", value: key) }
        return try await app.testing().sendRequest(.POST, "/api/v1/research/studies/\(study)/messages", headers: headers, body: ByteBuffer(string: json))
    }

    private func token(_ email: String, readOnly: Bool = false, on db: any Database) async throws -> String {
        let researcher = try #require(try await Researcher.query(on: db).filter(\.$email == email).first())
        return try await AccessTokens.create(
            for: researcher, name: "messages", studySlugs: [], expiresInDays: nil, readOnly: readOnly, triggersBeeps: false, on: db, now: Date()).secret
    }

    @Test("a filtered sending in every language, once per key; refusals store nothing")
    func sendThroughTheAPI() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            world.studyA.languagesJSON = #"["en","de"]"#
            try await world.studyA.save(on: app.db)
            _ = try await WebsiteWorld.participant(in: world.studyA, label: "BCD23", on: app.db)
            let token = try await self.token(WebsiteWorld.developer, on: app.db)
            let texts = #""texts": {"en": "Please charge your phone.", "de": "Bitte laden Sie Ihr Telefon."}"#

            let oneLanguage = try await post(app, token: token, json: #"{"text": "Please charge your phone."}"#)
            #expect(oneLanguage.status == .unprocessableEntity, "a study in two languages needs both")
            let missing = try await post(app, token: token, json: #"{"texts": {"en": "Please charge your phone."}}"#)
            #expect(missing.status == .unprocessableEntity)
            #expect(missing.body.string.contains("German"))
            #expect(try await post(app, token: token, json: #"{\#(texts), "colour": "red"}"#).status == .badRequest)
            #expect(try await post(app, token: token, json: #"{\#(texts), "participant": "BCD23", "quiet": 3}"#).status == .badRequest)
            #expect(try await post(app, token: token, json: #"{\#(texts), "participant": "NOONE"}"#).status == .unprocessableEntity)
            #expect(try await post(app, token: token, json: #"{\#(texts), "quiet": 0}"#).status == .badRequest)
            #expect(try await post(app, token: token, json: #"{\#(texts)}"#, key: "not/a key").status == .badRequest, "the API's one rule for keys")
            #expect(try await ParticipantMessage.query(on: app.db).count() == 0, "nothing is stored for a refused call")

            let first = try await post(app, token: token, json: #"{\#(texts), "status": "participating"}"#, key: "charge-1")
            #expect(first.status == .created)
            let sent = try first.content.decode(Answer.self)
            #expect(sent.recipients == 2 && sent.without_push == 2 && !sent.repeated, "the two participants of study A, neither with a push channel")
            let again = try await post(app, token: token, json: #"{\#(texts), "status": "participating"}"#, key: "charge-1")
            #expect(again.status == .ok)
            let repeated = try again.content.decode(Answer.self)
            #expect(repeated.send_id == sent.send_id && repeated.recipients == 2 && repeated.repeated)
            #expect(try await ParticipantMessage.query(on: app.db).count() == 2, "a retried call sends nothing more")
            let toOne = try await post(app, token: token, json: #"{\#(texts), "participant": "bcd23"}"#)
            #expect(toOne.status == .created)
            #expect(try toOne.content.decode(Answer.self).recipients == 1)

            let readOnly = try await self.token(WebsiteWorld.developer, readOnly: true, on: app.db)
            #expect(try await post(app, token: readOnly, json: #"{\#(texts)}"#).status == .forbidden)
            let researcher = try await self.token(WebsiteWorld.researcher, on: app.db)
            #expect(try await post(app, token: researcher, json: #"{\#(texts)}"#).status == .forbidden, "the Researcher role may not write to participants")
            #expect(try await ParticipantMessage.query(on: app.db).count() == 3)
        }
    }
}

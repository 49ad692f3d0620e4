import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// A participant's status and named dates changed through the research API, with the website's
/// permission and rules.
@Suite("The research API: a participant's status and dates", .serialized)
struct ResearchAPIParticipantTests {
    private func post(_ app: Application, _ path: String, token: String, json: String) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        headers.bearerAuthorization = BearerAuthorization(token: token)
        headers.contentType = .json
        return try await app.testing().sendRequest(.POST, path, headers: headers, body: ByteBuffer(string: json))
    }

    private func token(_ email: String, readOnly: Bool = false, on db: any Database) async throws -> String {
        let researcher = try #require(try await Researcher.query(on: db).filter(\.$email == email).first())
        return try await AccessTokens.create(
            for: researcher, name: "actions", studySlugs: [], expiresInDays: nil, readOnly: readOnly, on: db, now: Date()).secret
    }

    private struct Listed: Decodable {
        let label: String
        let status: String
        let dates: [String: String]?
    }

    @Test("withdraw and reinstate by label; the beeps follow; refused without the permission or with a wrong status")
    func status() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let participant = try await WebsiteWorld.participant(in: world.studyA, label: "BCD23", on: app.db)
            let beep = Beep(
                participantID: try participant.requireID(), studyID: try world.studyA.requireID(), surveyID: nil, origin: .random,
                localDate: "2026-12-30", sequence: 0, scheduledAt: Date().addingTimeInterval(86_400), timeZone: "Europe/London", now: Date())
            try await beep.save(on: app.db)
            let full = try await token(WebsiteWorld.developer, on: app.db)
            let path = "/api/v1/research/studies/study-a/participants/bcd23/status"

            let withdrawn = try await post(app, path, token: full, json: #"{"status": "withdrawn"}"#)
            #expect(withdrawn.status == .ok, "\(withdrawn.body.string)")
            let shown = try JSONDecoder().decode(Listed.self, from: withdrawn.body)
            #expect(shown.label == "BCD23" && shown.status == "withdrawn")
            #expect(try await Beep.find(beep.requireID(), on: app.db)?.status == .cancelled, "a withdrawn participant's pending beeps are cancelled")
            #expect(try await post(app, path, token: full, json: #"{"status": "participating"}"#).status == .ok)
            #expect(try await Participant.find(participant.requireID(), on: app.db)?.status == .participating)

            for (json, expected) in [(#"{"status": "gone"}"#, HTTPStatus.unprocessableEntity), (#"{"state": "withdrawn"}"#, .badRequest), ("{}", .unprocessableEntity)] {
                #expect(try await post(app, path, token: full, json: json).status == expected, "\(json)")
            }
            for secret in [try await token(WebsiteWorld.developer, readOnly: true, on: app.db), try await token(WebsiteWorld.observer, on: app.db)] {
                #expect(try await post(app, path, token: secret, json: #"{"status": "withdrawn"}"#).status == .forbidden)
            }
            #expect(try await post(app, "/api/v1/research/studies/study-b/participants/bcd23/status", token: full, json: #"{"status": "withdrawn"}"#).status == .notFound)
            #expect(try await Participant.find(participant.requireID(), on: app.db)?.status == .participating, "no refused call changed anything")
        }
    }

    @Test("named dates are set and cleared by name, the others kept; an unknown name or a bad date is refused")
    func dates() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            world.studyA.participantDateNames = ["surgery", "discharge"]
            try await world.studyA.save(on: app.db)
            let participant = try await WebsiteWorld.participant(in: world.studyA, label: "BCD23", on: app.db)
            let full = try await token(WebsiteWorld.developer, on: app.db)
            let path = "/api/v1/research/studies/study-a/participants/BCD23/dates"

            let set = try await post(app, path, token: full, json: #"{"dates": {"surgery": "2026-12-01", "discharge": "2026-12-04"}}"#)
            #expect(set.status == .ok, "\(set.body.string)")
            #expect(try JSONDecoder().decode(Listed.self, from: set.body).dates == ["surgery": "2026-12-01", "discharge": "2026-12-04"])
            let cleared = try await post(app, path, token: full, json: #"{"dates": {"discharge": null}}"#)
            #expect(try JSONDecoder().decode(Listed.self, from: cleared.body).dates == ["surgery": "2026-12-01"])

            for json in [#"{"dates": {"birthday": "2026-01-01"}}"#, #"{"dates": {"surgery": "1 December"}}"#] {
                let refused = try await post(app, path, token: full, json: json)
                #expect(refused.status == .unprocessableEntity, "\(json): \(refused.body.string)")
            }
            #expect(try await post(app, path, token: full, json: #"{"surgery": "2026-12-01"}"#).status == .badRequest)
            #expect(try await Participant.find(participant.requireID(), on: app.db)?.namedDates.mapValues(\.description) == ["surgery": "2026-12-01"])
        }
    }
}

import Fluent
import Foundation
@testable import MomentaryServer
import MomentaryCore
import Testing
import Vapor
import VaporTesting

/// `PUT /api/v1/research/studies/{slug}`: a study document replaces the study's settings, surveys
/// and schedules under the rules of import, all or nothing, and participants follow at once.
@Suite("The research API: replacing a study's document", .serialized)
struct ResearchAPIStudyUpdateTests {
    private func request(_ app: Application, _ method: HTTPMethod, token: String, study: String = "study-a", body: Data? = nil) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        headers.bearerAuthorization = BearerAuthorization(token: token)
        if body != nil { headers.contentType = .json }
        return try await app.testing().sendRequest(method, "/api/v1/research/studies/\(study)", headers: headers, body: body.map { ByteBuffer(data: $0) })
    }

    private func token(_ email: String, readOnly: Bool = false, on db: any Database) async throws -> String {
        let researcher = try #require(try await Researcher.query(on: db).filter(\.$email == email).first())
        return try await AccessTokens.create(
            for: researcher, name: "protocol", studySlugs: [], expiresInDays: nil, readOnly: readOnly, triggersBeeps: false, on: db, now: Date()).secret
    }

    private func document(_ app: Application, token: String) async throws -> [String: Any] {
        let answer = try await request(app, .GET, token: token)
        #expect(answer.status == .ok)
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.body.readableBytesView)) as? [String: Any])
    }

    private func json(_ object: [String: Any]) throws -> Data { try JSONSerialization.data(withJSONObject: object) }

    @Test("settings, a changed survey, a new one, one left out and a schedule: stored, versioned and replanned")
    func replaceTheProtocol() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let token = try await self.token(WebsiteWorld.developer, on: app.db)
            let original = try await document(app, token: token)

            let unchanged = try await request(app, .PUT, token: token, body: try json(original))
            #expect(unchanged.status == .ok)
            let nothing = try #require(try JSONSerialization.jsonObject(with: Data(unchanged.body.readableBytesView)) as? [String: Any])
            #expect((nothing["changes"] as? [String: Any])?["surveys_versioned"] as? [String] == [], "the same document changes no survey")

            var changed = original
            changed["alert_text"] = "Time for a short check-in."
            changed["answer_window_minutes"] = 15
            changed["message_replies_allowed"] = true
            var surveys = try #require(changed["surveys"] as? [[String: Any]])
            let firstName = try #require(surveys.first?["name"] as? String)
            var first = surveys[0]
            var content = try #require((first["document"] as? [String: Any])?["content"] as? [[String: Any]])
            content[0]["question_text"] = "How happy do you feel right now?"
            var firstDocument = try #require(first["document"] as? [String: Any])
            firstDocument["content"] = content
            first["document"] = firstDocument
            first["schedule"] = ["rules": [["weekly": ["days": ["mon", "tue", "wed", "thu", "fri"], "time": "20:30"]]]]
            surveys[0] = first
            var evening = first
            evening["name"] = "Evening diary"
            evening["position"] = 5
            evening["schedule"] = nil
            surveys.append(evening)
            changed["surveys"] = surveys
            let stored = try await request(app, .PUT, token: token, body: try json(changed))
            #expect(stored.status == .ok, "\(stored.body.string)")
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(stored.body.readableBytesView)) as? [String: Any])
            let changes = try #require(answer["changes"] as? [String: Any])
            #expect(changes["surveys_versioned"] as? [String] == [firstName])
            #expect(changes["surveys_added"] as? [String] == ["Evening diary"])
            #expect((changes["participants_replanned"] as? Int ?? 0) >= 1, "a new schedule replans the participants taking part")

            let study = try #require(try await Study.find(world.studyA.requireID(), on: app.db))
            #expect(study.localizedText(of: .alertText)?.text == "Time for a short check-in." && study.answerWindowMinutes == 15 && study.messageRepliesAllowed)
            let survey = try #require(try await Survey.find(world.surveyA, on: app.db))
            #expect(survey.currentVersion == 2, "a changed survey gets a new version; answers keep version 1")
            #expect(try await SurveyVersion.query(on: app.db).filter(\.$survey.$id == world.surveyA).count() == 2)
            #expect(try await Schedule.query(on: app.db).filter(\.$survey.$id == world.surveyA).count() == 1)
            #expect(try await Survey.query(on: app.db).filter(\.$study.$id == study.requireID()).filter(\.$name == "Evening diary").count() == 1)

            // Leaving a survey out switches it off; it is never deleted.
            var fewer = changed
            fewer["surveys"] = [try #require((changed["surveys"] as? [[String: Any]])?.first)]
            let narrowed = try await request(app, .PUT, token: token, body: try json(fewer))
            #expect(narrowed.status == .ok)
            let evenings = try await Survey.query(on: app.db).filter(\.$name == "Evening diary").all()
            #expect(evenings.count == 1 && evenings[0].active == false)
        }
    }

    @Test("refusals: another slug, an unknown field, a rule broken, a survey's kind; nothing changes, and the permission is checked")
    func refusals() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let token = try await self.token(WebsiteWorld.developer, on: app.db)
            let original = try await document(app, token: token)
            let before = try #require(try await Study.find(world.studyA.requireID(), on: app.db)).updatedAt

            var renamed = original
            renamed["slug"] = "study-z"
            #expect(try await request(app, .PUT, token: token, body: try json(renamed)).status == .unprocessableEntity)
            var misspelt = original
            misspelt["answer_window_minute"] = 15
            let unknown = try await request(app, .PUT, token: token, body: try json(misspelt))
            #expect(unknown.status == .badRequest && unknown.body.string.contains("answer_window_minute"))
            var broken = original
            broken["alert_text"] = "Changed, but the rest is wrong"
            broken["beeps_per_day"] = ["min": 5, "max": 2, "default": 3]
            #expect(try await request(app, .PUT, token: token, body: try json(broken)).status == .unprocessableEntity)
            var kind = original
            var surveys = try #require(kind["surveys"] as? [[String: Any]])
            surveys[0]["kind"] = "registration"
            kind["alert_text"] = "Changed, but a kind changes too"
            kind["surveys"] = surveys
            let refusedKind = try await request(app, .PUT, token: token, body: try json(kind))
            #expect(refusedKind.status == .unprocessableEntity && refusedKind.body.string.contains("kind cannot change"))
            #expect(try await request(app, .PUT, token: token, body: Data("not json".utf8)).status == .badRequest)
            #expect(try await request(app, .PUT, token: token, body: Data()).status == .badRequest)

            let readOnly = try await self.token(WebsiteWorld.developer, readOnly: true, on: app.db)
            #expect(try await request(app, .PUT, token: readOnly, body: try json(original)).status == .forbidden)
            let researcher = try await self.token(WebsiteWorld.researcher, on: app.db)
            #expect(try await request(app, .PUT, token: researcher, body: try json(original)).status == .forbidden)

            let study = try #require(try await Study.find(world.studyA.requireID(), on: app.db))
            #expect(study.updatedAt == before && study.localizedText(of: .alertText)?.text != "Changed, but a kind changes too",
                    "a refused document changes nothing, not even the settings before the refusal")
        }
    }
}

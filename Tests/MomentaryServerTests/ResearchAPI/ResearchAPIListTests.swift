import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// The research API's JSON lists as a script pages through them: `after` and `limit`, the
/// website's filters, and refusals of what they do not understand.
@Suite("The research API: participants, beeps and responses as JSON", .serialized)
struct ResearchAPIListTests {
    private struct Page: Decodable {
        let participants: [Item]?
        let beeps: [Item]?
        let responses: [Item]?
        let next: String?
        var items: [Item] { participants ?? beeps ?? responses ?? [] }
    }

    private struct Item: Decodable {
        let id: String?
        let response_id: String?
        let label: String?
        let participant: String?
        let status: String?
        let origin: String?
        let survey: String?
        var key: String { id ?? response_id ?? "" }
    }

    private func get(_ app: Application, _ path: String, token: String) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        headers.bearerAuthorization = BearerAuthorization(token: token)
        return try await app.testing().sendRequest(.GET, path, headers: headers)
    }

    /// Every item of a list, `limit` at a time, following `next`; fails on a page that is not 200.
    private func all(_ app: Application, _ path: String, token: String, limit: Int) async throws -> (items: [Item], pages: Int) {
        var items: [Item] = []
        var after: String?
        var pages = 0
        repeat {
            let separator = path.contains("?") ? "&" : "?"
            let response = try await get(app, path + separator + "limit=\(limit)" + (after.map { "&after=" + $0 } ?? ""), token: token)
            #expect(response.status == .ok, "\(response.body.string)")
            let page = try JSONDecoder().decode(Page.self, from: response.body)
            items += page.items
            after = page.next
            pages += 1
        } while after != nil && pages < 50
        return (items, pages)
    }

    private func token(_ email: String, readOnly: Bool = true, on db: any Database) async throws -> String {
        let researcher = try #require(try await Researcher.query(on: db).filter(\.$email == email).first())
        return try await AccessTokens.create(
            for: researcher, name: "lists", studySlugs: [], expiresInDays: nil, readOnly: readOnly, on: db, now: Date()).secret
    }

    @Test("participants page by page in registration order, each once, filtered as on the website")
    func participants() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var labels: [String] = []
            for (index, label) in ["BCD23", "FGH45", "JKL67", "MNP89", "QRS22"].enumerated() {
                let participant = try await WebsiteWorld.participant(in: world.studyA, label: label, on: app.db)
                participant.registeredAt = Date(timeIntervalSince1970: 1_790_000_000 + Double(index) * 60)
                if label == "JKL67" { participant.status = .withdrawn }
                try await participant.save(on: app.db)
                labels.append(label)
            }
            let token = try await token(WebsiteWorld.observer, on: app.db)
            let listed = try await all(app, "/api/v1/research/studies/study-a/participants", token: token, limit: 2)
            let expected = try await Participant.query(on: app.db).filter(\.$study.$id == world.studyA.requireID())
                .sort(\.$registeredAt).sort(\.$id).all().map { try $0.requireID().uuidString.lowercased() }
            #expect(listed.items.map(\.key) == expected, "every participant once, in registration order")
            #expect(listed.pages == 4, "3 full pages of 2 and an empty one")
            #expect(listed.items.compactMap(\.label).filter(labels.contains) == labels)

            let withdrawn = try await all(app, "/api/v1/research/studies/study-a/participants?status=withdrawn", token: token, limit: 10)
            #expect(withdrawn.items.map(\.label) == ["JKL67"])
            let searched = try await all(app, "/api/v1/research/studies/study-a/participants?q=fgh", token: token, limit: 10)
            #expect(searched.items.map(\.label) == ["FGH45"])

            for query in ["limit=0", "limit=1001", "limit=many", "limit=", "after=", "after=nope", "after=\(world.participantB)", "stauts=withdrawn", "status=gone", "quiet=0"] {
                let refused = try await get(app, "/api/v1/research/studies/study-a/participants?" + query, token: token)
                #expect(refused.status == .badRequest, "\(query): \(refused.body.string)")
            }
            let researcher = try await self.token(WebsiteWorld.researcher, on: app.db)
            #expect([.forbidden, .notFound].contains(try await get(app, "/api/v1/research/studies/study-b/participants", token: researcher).status))
        }
    }

    @Test("beeps in the order they were due, filtered by participant, status and origin")
    func beeps() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let participant = try await WebsiteWorld.participant(in: world.studyA, label: "BCD23", on: app.db)
            let base = Date(timeIntervalSince1970: 1_790_000_000)
            for index in 0..<5 {
                let beep = Beep(
                    participantID: try participant.requireID(), studyID: try world.studyA.requireID(), surveyID: nil,
                    origin: index == 4 ? .api : .random, localDate: "2026-09-21", sequence: index,
                    scheduledAt: base.addingTimeInterval(Double(4 - index) * 600), timeZone: "Europe/London", now: base)
                beep.status = index < 2 ? .answered : .expired
                try await beep.save(on: app.db)
            }
            let token = try await token(WebsiteWorld.developer, on: app.db)
            let listed = try await all(app, "/api/v1/research/studies/study-a/beeps", token: token, limit: 2)
            let expected = try await Beep.query(on: app.db).filter(\.$study.$id == world.studyA.requireID())
                .sort(\.$scheduledAt).sort(\.$id).all().map { try $0.requireID().uuidString.lowercased() }
            #expect(listed.items.map(\.key) == expected)
            #expect(listed.items.count == 5)
            #expect(Set(listed.items.compactMap(\.participant)) == ["BCD23"])
            #expect(try await all(app, "/api/v1/research/studies/study-a/beeps?status=answered", token: token, limit: 10).items.count == 2)
            #expect(try await all(app, "/api/v1/research/studies/study-a/beeps?origin=api&participant=bcd23", token: token, limit: 10).items.map(\.origin) == ["api"])
            #expect(try await all(app, "/api/v1/research/studies/study-a/beeps?from=2030-01-01", token: token, limit: 10).items.isEmpty)
            for query in ["status=lost", "origin=robot", "from=yesterday", "participant=ZZZ99"] {
                let refused = try await get(app, "/api/v1/research/studies/study-a/beeps?" + query, token: token)
                #expect([.badRequest, .notFound].contains(refused.status), "\(query): \(refused.body.string)")
            }
        }
    }

    @Test("responses as the JSON export writes them, a page at a time, by participant and survey")
    func responses() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let participant = try await WebsiteWorld.participant(in: world.studyA, label: "BCD23", on: app.db)
            for minute in 0..<4 {
                let response = SurveyResponse()
                response.$participant.id = try participant.requireID()
                response.$study.id = try world.studyA.requireID()
                response.$survey.id = world.surveyA
                response.surveyVersion = 1
                response.kind = .esm
                response.volunteered = true
                response.idempotencyKey = UUID().uuidString
                let at = Date(timeIntervalSince1970: 1_790_000_000 + Double(minute) * 60)
                response.startedAt = at
                response.submittedAt = at
                response.receivedAt = at
                try await response.save(on: app.db)
            }
            let token = try await token(WebsiteWorld.observer, on: app.db)
            let listed = try await all(app, "/api/v1/research/studies/study-a/responses", token: token, limit: 2)
            let expected = try await SurveyResponse.query(on: app.db).filter(\.$study.$id == world.studyA.requireID())
                .sort(\.$submittedAt).sort(\.$id).all().map { try $0.requireID().uuidString.lowercased() }
            #expect(listed.items.map(\.key) == expected)
            #expect(listed.items.count == 5)
            #expect(Set(listed.items.compactMap(\.survey)) == ["Feelings"])
            #expect(try await all(app, "/api/v1/research/studies/study-a/responses?participant=BCD23", token: token, limit: 3).items.count == 4)
            #expect(try await all(app, "/api/v1/research/studies/study-a/responses?survey=Feelings&to=2020-01-01", token: token, limit: 3).items.isEmpty)
            #expect(try await get(app, "/api/v1/research/studies/study-a/responses?survey=Nope", token: token).status == .notFound)
            #expect(try await get(app, "/api/v1/research/studies/study-a/responses?after=\(world.responseB)", token: token).status == .badRequest)
        }
    }
}

import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing
import ZIPFoundation

@Suite("What participants get back: feedback charts and their own data")
struct PersonalDataTests {
    /// A demo-survey response with a chosen happiness, place and time.
    static func response(happy: Double, place: String, minutesAgo: Double, located: Bool = true) -> ResponseSubmission {
        let started = Date().addingTimeInterval(-minutesAgo * 60)
        return ResponseSubmission(
            idempotencyKey: UUID().uuidString, surveyVersion: 1, startedAt: started, submittedAt: started.addingTimeInterval(20),
            answers: [
                SubmittedAnswer(questionID: "happy", answer: .number(happy)),
                SubmittedAnswer(questionID: "relaxed", answer: .number(50)),
                SubmittedAnswer(questionID: "awake", answer: .number(50)),
                SubmittedAnswer(questionID: "where", answer: .string(place)),
                SubmittedAnswer(questionID: "with_whom", answer: .array([.string("friends")])),
                SubmittedAnswer(questionID: "anything_else", answer: .string("Tea, then \"more\" tea; <b>fine</b>")),
            ],
            context: MomentaryCore.ResponseContext(
                location: located ? LocationFix(latitude: 51.5, longitude: -0.12, horizontalAccuracy: 30, timestamp: started) : nil,
                battery: 0.5))
    }

    @Test("feedback: means by place and hour in JSON, the same as an SVG page, 404 when the study has it off")
    func feedback() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            for (happy, place) in [(60.0, "work"), (70, "work"), (80, "work"), (90, "home")] {
                _ = try await client.submitResponse(Self.response(happy: happy, place: place, minutesAgo: 30))
            }
            let summary = try await client.feedback()
            #expect(summary.answers == 4 && summary.mean == 75)
            let place = try #require(summary.groups.first { $0.id == "where" })
            #expect(place.categories.map(\.label) == ["At work"] && place.categories.first?.mean == 70)
            #expect(place.omittedCategories == 1, "home was answered once")
            #expect(try await client.status().feedbackAvailable)

            let page = try await RawHTTP.send(
                server.baseURL, "GET", "/api/v1/feedback", body: nil,
                headers: RawHTTP.basic(registration.participantID, registration.secret).merging(["Accept": "text/html"]) { $1 })
            #expect(page.status == 200)
            #expect(page.body.contains("<svg") && page.body.contains(#"role="img""#) && page.body.contains("At work: 70 (3 answers)"))
            #expect(!page.body.contains("<script"), "the page needs no script")
            // What curl, Python requests and R send, or a client preferring JSON, gets JSON.
            for accept in ["*/*", "application/json, text/html;q=0.5", "text/*;q=0.9, application/json", ""] {
                var headers = RawHTTP.basic(registration.participantID, registration.secret)
                if !accept.isEmpty { headers["Accept"] = accept }
                let answer = try await RawHTTP.send(server.baseURL, "GET", "/api/v1/feedback", body: nil, headers: headers)
                #expect(answer.status == 200 && answer.body.hasPrefix("{"), "Accept: \(accept) gave \(answer.body.prefix(40))")
            }

            let study = try #require(try await Study.query(on: server.db).filter(\.$slug == "demo").first())
            study.feedbackEnabled = false
            try await study.save(on: server.db)
            await #expect(throws: MomentaryClientError.self) { try await client.feedback() }
            #expect(try await client.status().feedbackAvailable == false)
        }
    }

    @Test("the download link is https only when a trusted proxy says the app came over https")
    func linkScheme() async throws {
        for (trusted, secure) in [(true, true), (false, false)] {
            try await withRunningServer(adjusting: { $0.trustedProxies = trusted ? ["127.0.0.1", "::1"] : [] }) { server in
                try await APIFixture.seedDemo(on: server.db)
                let (_, registration) = try await APIFixture.register(on: server)
                var headers = RawHTTP.basic(registration.participantID, registration.secret)
                headers["X-Forwarded-Proto"] = "https"
                let (status, body) = try await RawHTTP.post(server.baseURL, "/api/v1/data-download", json: "", headers: headers)
                #expect(status == 201, "\(body)")
                #expect(body.contains(secure ? #""url":"https:"# : #""url":"http:"#), "trusted proxy: \(trusted): \(body)")
            }
        }
    }

    @Test("data download: a new link each time, the old one dead at once; every bad code gets the same 404")
    func links() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, _) = try await APIFixture.register(on: server)
            _ = try await client.submitResponse(Self.response(happy: 64, place: "home", minutesAgo: 10))
            #expect(try await client.status().dataDownloadEnabled == false)
            let first = try await client.enableDataDownload()
            #expect(first.url.hasSuffix("/my/" + first.code))
            #expect(try await client.status().dataDownloadEnabled)
            let stored = try #require(try await Participant.query(on: server.db).first())
            #expect(stored.downloadTokenHash != nil && !(stored.downloadTokenHash ?? "").contains(first.code), "only a hash is stored")
            let page = try await RawHTTP.send(server.baseURL, "GET", "/my/\(first.code)", body: nil)
            #expect(page.status == 200)
            #expect(page.body.contains("My answers") && page.body.contains("At home"))
            #expect(page.body.contains("Tea, then &quot;more&quot; tea; &lt;b&gt;fine&lt;/b&gt;"), "answers are escaped")
            #expect(try await RawHTTP.send(server.baseURL, "GET", "/my/\(first.code.uppercased())", body: nil).status == 200, "case is forgiven")

            let second = try await client.enableDataDownload()
            #expect(second.code != first.code)
            let old = try await RawHTTP.send(server.baseURL, "GET", "/my/\(first.code)", body: nil)
            let unknown = try await RawHTTP.send(server.baseURL, "GET", "/my/bcdf-ghjk-mnpq-rstv", body: nil)
            let malformed = try await RawHTTP.send(server.baseURL, "GET", "/my/not-a-code", body: nil)
            #expect(old.status == 404 && unknown.status == 404 && malformed.status == 404)
            #expect(old.body == unknown.body && unknown.body == malformed.body, "no oracle: the same answer for each")
            let browser = ["Accept": "text/html,application/xhtml+xml"]
            let pages = try await [first.code, "bcdf-ghjk-mnpq-rstv", "not-a-code"].asyncMap { code in
                try await RawHTTP.send(server.baseURL, "GET", "/my/\(code)", body: nil, headers: browser)
            }
            #expect(pages.allSatisfy { $0.status == 404 && $0.body.contains("<h1>Nothing here</h1>") && $0.body.contains("turned off") })
            #expect(Set(pages.map(\.body)).count == 1, "a browser gets one page for every kind of bad link")
            #expect(try await RawHTTP.send(server.baseURL, "GET", "/my/\(second.code)/responses.csv", body: nil).status == 200)

            let study = try #require(try await Study.query(on: server.db).filter(\.$slug == "demo").first())
            study.dataDownloadEnabled = false
            try await study.save(on: server.db)
            let studyOff = try await RawHTTP.send(server.baseURL, "GET", "/my/\(second.code)", body: nil)
            #expect(studyOff.status == 404 && studyOff.body == unknown.body, "a study that stops offering downloads closes every link")
            study.dataDownloadEnabled = true
            try await study.save(on: server.db)

            try await client.disableDataDownload()
            #expect(try await RawHTTP.send(server.baseURL, "GET", "/my/\(second.code)/responses.csv", body: nil).status == 404)
            #expect(try await client.status().dataDownloadEnabled == false)
        }
    }

    @Test("downloads are newest first, numbered, filtered by sequence and local dates; bad filters are 400")
    func formats() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, _) = try await APIFixture.register(on: server)
            for (index, happy) in [10.0, 20, 30].enumerated() {
                _ = try await client.submitResponse(Self.response(happy: happy, place: "home", minutesAgo: Double(30 - index * 10), located: index != 1))
            }
            let code = try await client.enableDataDownload().code
            let csv = try await RawHTTP.send(server.baseURL, "GET", "/my/\(code)/responses.csv", body: nil)
            let table = try CSVReader.records(csv.body)
            let header = try #require(table.first)
            let sequence = try #require(header.firstIndex(of: "sequence")), happy = try #require(header.firstIndex(of: "happy"))
            // The registration survey's answers are a response too.
            #expect(table.dropFirst().map { $0[sequence] } == ["4", "3", "2", "1"], "newest first")
            #expect(table.dropFirst().map { $0[happy] } == ["", "30", "20", "10"], "registration came last: its submission is the newest")

            let after = try await RawHTTP.send(server.baseURL, "GET", "/my/\(code)/responses.json?after_sequence=1", body: nil)
            let objects = try #require(try JSONSerialization.jsonObject(with: Data(after.body.utf8)) as? [[String: Any]])
            #expect(objects.map { $0["sequence"] as? Int } == [4, 3, 2])

            let tomorrow = WallClock.localDate(of: Date().addingTimeInterval(86_400 * 2), in: TimeZone(identifier: "Europe/London")!)
            let none = try await RawHTTP.send(server.baseURL, "GET", "/my/\(code)/responses.json?from=\(tomorrow)", body: nil)
            #expect(none.body.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
            for bad in ["from=yesterday", "to=2026-02-30", "after_sequence=-1", "after_sequence=x", "from=2026-05-02&to=2026-05-01"] {
                let refused = try await RawHTTP.send(server.baseURL, "GET", "/my/\(code)/responses.csv?\(bad)", body: nil)
                #expect(refused.status == 400, "\(bad) is refused")
            }

            let calendar = try await RawHTTP.send(server.baseURL, "GET", "/my/\(code)/responses.ics", body: nil)
            #expect(calendar.body.hasPrefix("BEGIN:VCALENDAR\r\n") && calendar.body.components(separatedBy: "BEGIN:VEVENT").count == 5)
            #expect(calendar.body.contains("SUMMARY:Do you feel happy? 30"), "the feedback question as the participant read it")
            #expect(calendar.body.contains("SUMMARY:Registration"), "a response without it is named by its survey")

            let kmz = try await RawHTTP.fetch(server.baseURL, "/my/\(code)/responses.kmz")
            #expect(kmz.headers["content-type"] == "application/vnd.google-earth.kmz")
            let archive = try Archive(data: kmz.body, accessMode: .read)
            let entry = try #require(archive["doc.kml"])
            var kml = Data()
            _ = try archive.extract(entry) { kml.append($0) }
            let text = String(decoding: kml, as: UTF8.self)
            #expect(text.components(separatedBy: "<Placemark>").count == 3, "two of the three responses have a location")
            #expect(text.contains("<coordinates>-0.12,51.5</coordinates>"))
        }
    }

    @Test("photos only through their owner's link; guessing links is rate-limited per address")
    func photosAndLimits() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (alice, _) = try await APIFixture.register(on: server)
            let (bob, _) = try await APIFixture.register(on: server, APIFixture.registration(seed: 2))
            let response = try await alice.submitResponse(Self.response(happy: 50, place: "home", minutesAgo: 5))
            let jpeg = TestJPEG.make()
            let photo = try await alice.uploadPhoto(jpeg, responseID: response.responseID, isPublic: false)
            let aliceCode = try await alice.enableDataDownload().code
            let bobCode = try await bob.enableDataDownload().code
            let path = "photos/\(photo.photoID.uuidString.lowercased()).jpg"
            let own = try await RawHTTP.fetch(server.baseURL, "/my/\(aliceCode)/\(path)")
            #expect(own.status == 200 && own.body == jpeg && own.headers["content-type"] == "image/jpeg")
            let page = try await RawHTTP.send(server.baseURL, "GET", "/my/\(aliceCode)", body: nil).body
            #expect(page.contains(path), "the gallery shows the photo: \(page.suffix(600))")
            #expect(try await RawHTTP.fetch(server.baseURL, "/my/\(bobCode)/\(path)").status == 404, "not through another's link")

            for attempt in 0..<PersonalDataRoutes.failureLimit {
                #expect(try await RawHTTP.send(server.baseURL, "GET", "/my/bcdf-ghjk-mnpq-\(attempt)", body: nil).status == 404)
            }
            let blocked = try await RawHTTP.send(server.baseURL, "GET", "/my/\(aliceCode)", body: nil)
            #expect(blocked.status == 429, "after \(PersonalDataRoutes.failureLimit) unknown links the address waits, even for a good one")
        }
    }
}

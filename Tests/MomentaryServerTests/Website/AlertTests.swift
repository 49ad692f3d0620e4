import Fluent
import Foundation
import Logging
import MomentaryCore
@testable import MomentaryServer
import Testing
import Vapor

/// Alert rules as researchers meet them: each alert raised once, emailed through a real SMTP
/// server (aiosmtpd), answers left out unless the rule says so, and the rules' form refusing
/// what cannot work.
@Suite("Alerts", .serialized)
struct AlertTests {
    private static let logger = Logger(label: "alert-tests")

    private func developerID(on db: any Database) async throws -> UUID {
        try #require(try await Researcher.query(on: db).filter(\.$email == WebsiteWorld.developer).first()).requireID()
    }

    @Test("a participant quiet for the rule's days raises one alert, emailed once to those still of the study; a later check raises nothing more")
    func quietParticipant() async throws {
        let mail = try await LocalSMTPServer()
        defer { mail.stop() }
        let clock = ManualTimeSource(now: Date())
        try await withTestApp(timeSource: clock, adjusting: { $0.mail = .local(mail, security: .none) }) { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let quiet = try await WebsiteWorld.participant(in: world.studyA, label: "BCD23", on: app.db)
            quiet.registeredAt = clock.now().addingTimeInterval(-5 * 86_400)
            try await quiet.save(on: app.db)
            let member = try #require(try await Researcher.query(on: app.db).filter(\.$email == WebsiteWorld.researcher).first()).requireID()
            _ = try await AlertRules.create(
                .init(kind: .quiet, days: 3, recipients: [try await developerID(on: app.db), member]), in: world.studyA, by: "dev@example.org", on: app.db, now: clock.now())
            // The researcher leaves the study after the rule was made: no more of its alerts for them.
            try await StudyMembership.query(on: app.db).filter(\.$researcher.$id == member).delete()

            #expect(await AlertChecker.run(on: app.db, now: clock.now(), mail: app.mail, logger: Self.logger) == 1)
            #expect(await AlertChecker.run(on: app.db, now: clock.now().addingTimeInterval(3_600), mail: app.mail, logger: Self.logger) == 0)
            #expect(try await app.mail?.deliverDue() == 1)
            let messages = try await mail.waitForMessages(1)
            #expect(messages.count == 1)
            #expect(messages.first?.rcpt_tos == [WebsiteWorld.developer])
            #expect(messages.first?.subject?.contains("Participant BCD23 has not answered for 3 days") == true)
            let page = try await app.db.sql.raw("SELECT delivery FROM alert_events").first()
            #expect(try page?.decode(column: "delivery", as: String.self) == "emailed to \(WebsiteWorld.developer)")
        }
    }

    @Test("a response meeting the condition raises an alert at once, with answers only when the rule says so")
    func responseCondition() async throws {
        let mail = try await LocalSMTPServer()
        defer { mail.stop() }
        let clock = ManualTimeSource(now: Date())
        try await withRunningServer(timeSource: clock, adjusting: { $0.mail = .local(mail, security: .none) }) { server in
            try await APIFixture.seedDemo(on: server.db)
            let study = try #require(try await Study.query(on: server.db).filter(\.$slug == "demo").first())
            let researcher = try #require(try await Researcher.query(on: server.db).first()).requireID()
            for includeAnswers in [false, true] {
                _ = try await AlertRules.create(
                    .init(kind: .response, surveyName: "How are you feeling?", condition: #"{">=": ["happy", 90]}"#, includeAnswers: includeAnswers,
                          recipients: [researcher]), in: study, by: "r@example.org", on: server.db, now: clock.now())
            }
            let (client, _) = try await APIFixture.register(on: server)
            for (happy, seed) in [(95.0, UInt64(1)), (10.0, 2)] {
                var submission = APIFixture.submission(seed: seed)
                submission.answers = submission.answers.map { $0.questionID == "happy" ? SubmittedAnswer(questionID: "happy", answer: .number(happy)) : $0 }
                _ = try await client.submitResponse(submission)
            }
            #expect(await AlertChecker.run(on: server.db, now: clock.now(), mail: server.app.mail, logger: Self.logger) == 2, "one alert per rule, for the happy response only")
            #expect(await AlertChecker.run(on: server.db, now: clock.now().addingTimeInterval(60), mail: server.app.mail, logger: Self.logger) == 0)
            #expect(try await server.app.mail?.deliverDue() == 2)
            let bodies = try await mail.waitForMessages(2).map(\.body)
            #expect(bodies.count == 2)
            #expect(bodies.filter { $0.contains("- happy: 95") }.count == 1, "only the rule that includes answers shows them")
            #expect(bodies.allSatisfy { $0.contains("meets {\">=\": [\"happy\", 90]}") })
        }
    }

    @Test("a day with too many failed beeps raises one alert; the digest goes out once from 7 in the morning")
    func failuresAndDigest() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let developer = try await developerID(on: app.db)
            let zone = TimeZone(identifier: world.studyA.defaultTimeZone) ?? .gmt
            let today = ComplianceReport.today(of: world.studyA, now: Date())
            let yesterday = today.adding(days: -1)
            let participant = try await WebsiteWorld.participant(in: world.studyA, label: "BCD23", on: app.db)
            for index in 0..<10 {
                let beep = Beep(
                    participantID: try participant.requireID(), studyID: try world.studyA.requireID(), surveyID: nil, origin: .random,
                    localDate: yesterday.description, sequence: index, scheduledAt: Date().addingTimeInterval(-86_400), timeZone: zone.identifier, now: Date())
                beep.status = index < 6 ? .failed : index < 8 ? .answered : .sent
                try await beep.save(on: app.db)
            }
            for threshold in [50, 70] {
                _ = try await AlertRules.create(.init(kind: .failures, thresholdPercent: threshold, recipients: [developer]), in: world.studyA, by: "d", on: app.db, now: Date())
            }
            _ = try await AlertRules.create(.init(kind: .digest, recipients: [developer]), in: world.studyA, by: "d", on: app.db, now: Date())
            let early = WallClock.instant(on: today, at: TimeOfDay(minutes: 6 * 60)!, in: zone)
            let morning = WallClock.instant(on: today, at: TimeOfDay(minutes: 7 * 60 + 1)!, in: zone)
            #expect(await AlertChecker.run(on: app.db, now: early, mail: nil, logger: Self.logger) == 1, "60 % failed: the 50 % rule only; no digest before 7")
            #expect(await AlertChecker.run(on: app.db, now: morning, mail: nil, logger: Self.logger) == 1, "the digest")
            #expect(await AlertChecker.run(on: app.db, now: morning.addingTimeInterval(3_600), mail: nil, logger: Self.logger) == 0)
            let summaries = try await app.db.sql.raw("SELECT summary, delivery FROM alert_events ORDER BY summary").all()
                .map { try $0.decode(column: "summary", as: String.self) }
            #expect(summaries.contains("6 of 10 beeps on \(yesterday) could not be delivered (60 %)"))
            #expect(summaries.contains("Compliance on \(yesterday): 2 of 4 beeps answered (50 %)"))
        }
    }

    @Test("the alerts page adds a rule only when it can work, observers may only look, and the overview shows the latest alerts")
    func website() async throws {
        try await withSignedInDeveloper { app, world, client in
            let developer = try await developerID(on: app.db).uuidString
            _ = try await client.get("/studies/study-a/alerts")
            let refusals: [([(String, String)], String)] = [
                ([("kind", "quiet"), ("days", "0"), ("recipients[]", developer)], "from 1 to 60"),
                ([("kind", "quiet"), ("days", "3")], "at least one researcher"),
                ([("kind", "response"), ("survey", "Feelings"), ("condition", #"{">=": ["nosuch", 2]}"#), ("recipients[]", developer)], "unknown question"),
                ([("kind", "response"), ("survey", "Feelings"), ("condition", "happy > 2"), ("recipients[]", developer)], "display_if"),
                ([("kind", "failures"), ("threshold", "150"), ("recipients[]", developer)], "percentage"),
                ([("kind", "sometimes"), ("recipients[]", developer)], "choose one"),
            ]
            for (form, problem) in refusals {
                let refused = try await client.post("/studies/study-a/alerts", form)
                #expect(refused.status == .unprocessableEntity, "\(form)")
                #expect(refused.body.string.contains(problem), "\(form): \(refused.body.string.prefix(0))")
            }
            #expect(try await AlertRule.query(on: app.db).count() == 0)
            let saved = try await client.post("/studies/study-a/alerts", [
                ("kind", "response"), ("survey", "Feelings"), ("condition", #"{">=": ["happy", 90]}"#), ("recipients[]", developer)])
            #expect(saved.status == .seeOther)
            let rule = try #require(try await AlertRule.query(on: app.db).first())
            #expect(rule.includeAnswers == false)

            var observer = WebClient(app)
            _ = try await observer.signIn(WebsiteWorld.observer)
            #expect(try await observer.get("/studies/study-a/alerts").status == .ok)
            #expect(try await observer.post("/studies/study-a/alerts/\(try rule.requireID())/delete").status == .forbidden)

            #expect(try await AlertChecker.raise([.init(key: "test", summary: "Something to look at")], of: rule, mail: nil, on: app.db, now: Date()) == 1)
            let overview = try await client.get("/studies/study-a")
            #expect(overview.body.string.contains("Something to look at"))
            #expect(overview.body.string.contains("not sent: this server has no mail settings"))
            #expect(try await client.post("/studies/study-b/alerts/\(try rule.requireID())/delete").status == .notFound)
            #expect(try await client.post("/studies/study-a/alerts/\(try rule.requireID())/delete").status == .seeOther)
            #expect(try await AlertRule.query(on: app.db).count() == 0)
            _ = world
        }
    }
}

import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing

/// A score as the study's feedback subject: the participant's charts, the public statistics and
/// the calendar titles summarise it, named by its label in the participant's language.
@Suite("Feedback on a score")
struct ScoreFeedbackTests {
    static let survey = """
        {"content": [
          {"question_id": "pa1", "question_type": "slider", "question_text": {"en": "Cheerful?", "de": "Fröhlich?"}, "min": 1, "max": 5},
          {"question_id": "pa2", "question_type": "slider", "question_text": {"en": "Gloomy?", "de": "Bedrückt?"}, "min": 1, "max": 5},
          {"question_id": "where", "question_type": "radio_button", "question_text": {"en": "Where are you?", "de": "Wo sind Sie?"},
           "answers": [{"text": {"en": "At home", "de": "Zu Hause"}, "value": "home"}, {"text": {"en": "At work", "de": "Bei der Arbeit"}, "value": "work"}]}
        ],
        "scores": [{"id": "mood", "mean": ["pa1", "pa2"], "reverse": ["pa2"], "label": {"en": "Mood", "de": "Stimmung"}}]}
        """

    static func document(_ change: (inout [String: Any]) -> Void = { _ in }) throws -> StudyDocument {
        try LanguagesAPITests.document { object in
            object["surveys"] = [["name": "Moment", "kind": "esm", "position": 0, "active": true,
                                  "document": try! JSONSerialization.jsonObject(with: Data(survey.utf8))]]
            object["feedback_enabled"] = true
            object["public_statistics_enabled"] = true
            object["feedback_question"] = "mood"
            change(&object)
        }
    }

    static func answers(_ pa1: Double, _ pa2: Double, at place: String, minutesAgo: Double) -> ResponseSubmission {
        let started = Date().addingTimeInterval(-minutesAgo * 60)
        return ResponseSubmission(
            idempotencyKey: UUID().uuidString, surveyVersion: 1, startedAt: started, submittedAt: started.addingTimeInterval(20),
            answers: [
                SubmittedAnswer(questionID: "pa1", answer: .number(pa1)), SubmittedAnswer(questionID: "pa2", answer: .number(pa2)),
                SubmittedAnswer(questionID: "where", answer: .string(place)),
            ],
            context: MomentaryCore.ResponseContext(location: LocationFix(
                latitude: PublicStatisticsTests.london.latitude, longitude: PublicStatisticsTests.london.longitude,
                horizontalAccuracy: 10, timestamp: started)))
    }

    @Test("charts, public statistics and calendar titles summarise the score, labelled in the participant's language")
    func scoreSubject() async throws {
        try await withRunningServer { server in
            _ = try await StudyTransfer.importStudy(try Self.document(), on: server.db, now: Date())
            let registered = try await server.client().register(LanguagesAPITests.registration(language: "de"))
            let client = server.client(ParticipantCredentials(participantID: registered.participantID, secret: registered.secret))
            // Mood is the mean of pa1 and 6 − pa2: 5, 4, 3 at home; 2 at work; pa2 alone leaves it missing.
            for (pa1, pa2, place) in [(5.0, 1.0, "home"), (4, 2, "home"), (3, 3, "home"), (2, 4, "work")] {
                _ = try await client.submitResponse(Self.answers(pa1, pa2, at: place, minutesAgo: 30))
            }
            var unscored = Self.answers(1, 1, at: "work", minutesAgo: 20)
            unscored.answers.removeFirst()
            let photographed = try await client.submitResponse(Self.answers(5, 1, at: "work", minutesAgo: 10))
            _ = try await client.uploadPhoto(Data(JPEGMetadataFixture.withGPS), responseID: photographed.responseID, isPublic: true)
            _ = try await client.submitResponse(unscored)

            let feedback = try await client.feedback()
            #expect(feedback.question?.id == "mood" && feedback.question?.text == "Stimmung")
            #expect(feedback.question?.min == 1 && feedback.question?.max == 5)
            #expect(feedback.answers == 5 && feedback.mean == 3.8, "the response without pa1 has no score")
            let places = try #require(feedback.groups.first { $0.id == "where" })
            #expect(places.categories == [FeedbackCategory(key: "home", label: "Zu Hause", mean: 4, answers: 3)])
            #expect(feedback.note.contains("Stimmung"), "\(feedback.note)")

            #expect(await PublicStatisticsService.refreshAll(on: server.db, now: Date(), logger: server.app.logger) == 1)
            let answer = try await RawHTTP.fetch(server.baseURL, "/api/v1/studies/zweisprachig/statistics")
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let statistics = try decoder.decode(PublicStatistics.self, from: answer.body)
            #expect(statistics.question?.text == "Mood", "public pages are in the default language")
            #expect(statistics.hedonimeter.overall.responses == 5 && statistics.hedonimeter.overall.mean == 3.8)
            #expect(statistics.photos.map(\.rating) == [5], "the photo's response scored 5 of 1–5")

            let calendar = try await exportText(.ics, study: "zweisprachig", on: server.db)
            #expect(calendar.contains("SUMMARY:Stimmung 4"), "\(calendar.prefix(1500))")
        }
    }

    @Test("a score needs a range and a label in every language to be the feedback subject; import and settings both say so")
    func refusals() throws {
        func problems(_ score: [String: Any]) throws -> [String] {
            try Self.document { object in
                var surveys = object["surveys"] as! [[String: Any]]
                var document = surveys[0]["document"] as! [String: Any]
                document["scores"] = [score]
                surveys[0]["document"] = document
                object["surveys"] = surveys
            }.problems()
        }
        #expect(try problems(["id": "mood", "mean": ["pa1", "pa2"], "label": ["en": "Mood", "de": "Stimmung"]]).isEmpty)
        #expect(try problems(["id": "mood", "mean": ["pa1", "pa2"]]).contains {
            $0.contains("“mood” is a score without a “label”")
        })
        #expect(try problems(["id": "mood", "mean": ["pa1", "pa2"], "label": ["en": "Mood"]]).contains {
            $0.contains("its label, which participants read above its charts, has no text in de")
        })
        #expect(try Self.document { $0["feedback_question"] = "where" }.problems().contains {
            $0.contains("“where” is not a slider or a score of the study’s survey (choose one of pa1, pa2, mood)")
        })
    }
}

import Foundation
import Testing
@testable import MomentaryCore

@Suite("Reporter answers and the survey behind them")
struct ReporterSurveyTests {
    static func snapshot(_ responses: [ReporterResponse]) -> ReporterSnapshot {
        ReporterSnapshot(date: ReporterDate(referenceSeconds: 413_471_577), responses: responses)
    }

    static let days = [
        ReporterDay(snapshots: [
            snapshot([
                ReporterResponse(questionPrompt: "What are you doing?", answer: .tokens(["Talking", "Drinking"])),
                ReporterResponse(questionPrompt: "Are you working?", answer: .options(["No"])),
                ReporterResponse(questionPrompt: "What is your energy?", answer: .options(["Neutral"])),
                ReporterResponse(questionPrompt: "Which drinks?", answer: .options(["Tea", "Coffee"])),
                ReporterResponse(questionPrompt: "How many coffees have you had?", answer: .number("2")),
            ]),
        ]),
        ReporterDay(snapshots: [
            snapshot([
                ReporterResponse(questionPrompt: "What are you doing?", answer: .tokens(["Working"])),
                ReporterResponse(questionPrompt: "Are you working?", answer: .options(["Yes"])),
                ReporterResponse(questionPrompt: "What is your energy?", answer: .options(["High"])),
                ReporterResponse(questionPrompt: "Which drinks?", answer: .options(["Water"])),
                ReporterResponse(questionPrompt: "What are you thinking about?", answer: .text("Lunch.\nAnd then a nap.")),
                ReporterResponse(questionPrompt: "Where are you?", answer: .location(ReporterLocationResponse(
                    text: "Office", location: ReporterLocation(latitude: 51.5, longitude: -0.12, timestamp: ReporterDate(referenceSeconds: 0))))),
                ReporterResponse(questionPrompt: "How many coffees have you had?", answer: .number("2.5")),
            ]),
        ]),
    ]

    @Test("one question per prompt in the order first seen, each kind following from its answers")
    func infersSurvey() throws {
        let survey = ReporterSurveyInference(days: Self.days).document
        #expect(survey.content.map(\.id) == [
            "what_are_you_doing", "are_you_working", "what_is_your_energy", "which_drinks", "how_many_coffees_have_you_had",
            "what_are_you_thinking_about", "where_are_you",
        ])
        #expect(survey.content.map(\.kind) == [
            .tokens(TokenList(suggestions: ["Talking", "Drinking", "Working"])), .yesNo,
            .radioButton([ChoiceOption("Neutral"), ChoiceOption("High")]),
            .checkbox([ChoiceOption("Tea"), ChoiceOption("Coffee"), ChoiceOption("Water")]),
            .number(NumberRange()), .freeResponse(.multiLineText), .location,
        ])
        #expect(survey.problems().isEmpty, "the inferred survey is a valid survey document")
    }

    @Test("every answer read into the inferred survey is valid there and is written back as it was read")
    func answersRoundTrip() throws {
        let inference = ReporterSurveyInference(days: Self.days)
        for response in Self.days.flatMap(\.snapshots).flatMap(\.responses) {
            let id = try #require(inference.questionID(for: response))
            let question = try #require(inference.document.question(withID: id))
            let answer = try #require(response.answer)
            let value = try #require(ReporterAnswerMapping.answerValue(answer, for: question), "\(response.questionPrompt)")
            let validated = try AnswerValidator.validate(
                [SubmittedAnswer(questionID: question.id, answer: value)], against: SurveyDocument(content: [question]))
            let stored = try #require(validated.first?.status.value)
            let written = ReporterAnswerMapping.reporterAnswer(for: question, value: stored, answeredAt: ReporterDate(referenceSeconds: 0))
            #expect(written == response.answer, "\(response.questionPrompt)")
        }
    }

    @Test("answers are written in Reporter's shapes: option texts rather than values, Yes/No, numbers as text, places with their time")
    func writesShapes() throws {
        let at = ReporterDate(Date(timeIntervalSince1970: 1_000), in: TimeZone(identifier: "UTC")!)
        let where_ = SurveyQuestion(id: "where", text: "Where?", kind: .radioButton([ChoiceOption("At home", value: "home")]))
        #expect(ReporterAnswerMapping.reporterAnswer(for: where_, value: .string("home"), answeredAt: at) == .options(["At home"]))
        let who = SurveyQuestion(id: "who", text: "With?", kind: .people([ChoiceOption("My partner", value: "partner")]))
        #expect(ReporterAnswerMapping.reporterAnswer(for: who, value: .array([.string("partner")]), answeredAt: at) == .tokens(["My partner"]))
        let happy = SurveyQuestion(id: "happy", text: "Happy?", kind: .slider(SliderScale(min: 0, max: 100)))
        #expect(ReporterAnswerMapping.reporterAnswer(for: happy, value: .number(72), answeredAt: at) == .number("72"))
        let sleep = SurveyQuestion(id: "sleep", text: "Slept?", kind: .yesNo)
        #expect(ReporterAnswerMapping.reporterAnswer(for: sleep, value: .bool(true), answeredAt: at) == .options(["Yes"]))
        let day = SurveyQuestion(id: "day", text: "When?", kind: .date)
        #expect(ReporterAnswerMapping.reporterAnswer(for: day, value: .string("2026-11-25"), answeredAt: at) == .text("2026-11-25"))
        let place = SurveyQuestion(id: "place", text: "Where?", kind: .location)
        #expect(ReporterAnswerMapping.reporterAnswer(
            for: place, value: .object(["latitude": .number(1), "longitude": .number(2)]), answeredAt: at)
            == .location(ReporterLocationResponse(location: ReporterLocation(latitude: 1, longitude: 2, timestamp: at))))
        let photo = SurveyQuestion(id: "photo", text: "Photo", kind: .photo)
        #expect(ReporterAnswerMapping.reporterAnswer(for: photo, value: .string("blob"), answeredAt: at) == nil, "Reporter has no photo answer")
    }

    @Test("a shape that does not fit the question is not an answer")
    func refusesMismatches() {
        let mood = SurveyQuestion(id: "mood", text: "Mood?", kind: .radioButton([ChoiceOption("Good")]))
        #expect(ReporterAnswerMapping.answerValue(.options(["Good", "Bad"]), for: mood) == nil)
        #expect(ReporterAnswerMapping.answerValue(.number("many"), for: mood) == nil)
        let place = SurveyQuestion(id: "place", text: "Where?", kind: .location)
        #expect(ReporterAnswerMapping.answerValue(.location(ReporterLocationResponse(text: "Home")), for: place) == nil)
    }

    @Test("a prompt answered in two shapes becomes one question per shape; a skipped prompt joins the shape its questions entry names")
    func shapeChange() throws {
        let options = ReporterResponse(questionPrompt: "How happy are you?", answer: .options(["Happy"]))
        let number = ReporterResponse(questionPrompt: "How happy are you?", answer: .number("7"))
        let skipped = ReporterResponse(questionPrompt: "How happy are you?", answer: nil)
        let never = ReporterResponse(questionPrompt: "Who are you with?", answer: nil)
        let days = [
            ReporterDay(snapshots: [Self.snapshot([options, never])]),
            ReporterDay(questions: [ReporterQuestion(prompt: "How happy are you?", questionType: 5),
                                    ReporterQuestion(prompt: "Who are you with?", questionType: 4),
                                    ReporterQuestion(prompt: "Are you working?", questionType: 2)],
                        snapshots: [Self.snapshot([number, skipped])]),
        ]
        let inference = ReporterSurveyInference(days: days)
        #expect(inference.document.content.map(\.id) == ["how_happy_are_you", "who_are_you_with", "how_happy_are_you_2", "are_you_working"])
        #expect(inference.document.content.map(\.text.text) == ["How happy are you?", "Who are you with?", "How happy are you?", "Are you working?"])
        #expect(inference.document.content.map(\.kind) == [
            .radioButton([ChoiceOption("Happy")]), .tokens(TokenList(suggestions: [])), .number(NumberRange()), .yesNo,
        ])
        #expect([options, number, skipped, never].map(inference.questionID(for:)) == [
            "how_happy_are_you", "how_happy_are_you_2", "how_happy_are_you_2", "who_are_you_with",
        ])
        #expect(inference.document.problems().isEmpty)
    }

    @Test("question ids are readable and unique", arguments: [
        ("What are you doing?", Set<String>(), "what_are_you_doing"),
        ("What are you doing?", Set(["what_are_you_doing"]), "what_are_you_doing_2"),
        ("¿Qué?", Set<String>(), "qu"),
        ("???", Set<String>(), "question"),
    ])
    func ids(prompt: String, taken: Set<String>, expected: String) {
        #expect(ReporterSurveyInference.uniqueID(for: prompt, taken: taken) == expected)
    }
}

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
                    text: "Office", location: ReporterLocation(latitude: 51.5, longitude: -0.12, timestamp: Date(timeIntervalSince1970: 0))))),
                ReporterResponse(questionPrompt: "How many coffees have you had?", answer: .number("2.5")),
            ]),
        ]),
    ]

    @Test("one question per prompt in the order first seen, each kind following from its answers")
    func infersSurvey() throws {
        let survey = try ReporterSurveyInference(days: Self.days).document
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
        let inference = try ReporterSurveyInference(days: Self.days)
        for response in Self.days.flatMap(\.snapshots).flatMap(\.responses) {
            let id = try #require(inference.questionIDs[response.questionPrompt])
            let question = try #require(inference.document.question(withID: id))
            let value = try #require(ReporterAnswerMapping.answerValue(response.answer, for: question), "\(response.questionPrompt)")
            let validated = try AnswerValidator.validate(
                [SubmittedAnswer(questionID: question.id, answer: value)], against: SurveyDocument(content: [question]))
            let stored = try #require(validated.first?.status.value)
            let written = ReporterAnswerMapping.reporterAnswer(for: question, value: stored, answeredAt: Date(timeIntervalSince1970: 0))
            #expect(written == response.answer, "\(response.questionPrompt)")
        }
    }

    @Test("answers are written in Reporter's shapes: option texts rather than values, Yes/No, numbers as text, places with their time")
    func writesShapes() throws {
        let at = Date(timeIntervalSince1970: 1_000)
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

    @Test("a prompt answered in two shapes is a conflict naming the prompt")
    func conflict() {
        let days = [ReporterDay(snapshots: [
            Self.snapshot([ReporterResponse(questionPrompt: "Who?", answer: .tokens(["Ann"]))]),
            Self.snapshot([ReporterResponse(questionPrompt: "Who?", answer: .text("Ann"))]),
        ])]
        #expect(throws: ReporterSurveyInference.Conflict(prompt: "Who?", shapes: ["textResponse", "tokens"])) {
            try ReporterSurveyInference(days: days)
        }
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

import Foundation
import Testing
@testable import MomentaryCore

@Suite("Answer validation")
struct AnswerValidatorTests {
    static let survey = SurveyFixtures.allKinds

    /// A complete, valid set of answers to the all-kinds survey, in survey order.
    static let valid: [(String, JSONValue?)] = [
        ("mood", .number(7.5)),
        ("energy", .number(3)),
        ("where", .string("home")),
        ("food", .array([.string("Cake"), .string("Bread")])),
        ("coffees", .number(2)),
        ("thought", .string("lunch")),
        ("story", .string("First line.\nSecond line.")),
        ("birthday", .string("2000-02-29")),
        ("woke", .string("07:30")),
        ("last_meal", .string("2024-05-01T12:15")),
        ("working", .bool(false)),
        ("steps", .number(5_000)),
        ("temperature", .number(-3.5)),
        ("doing", .array([.string("Talking"), .string("Knitting")])),
        ("chore", .array([.string("Dishes")])),
        ("people", .array([.string("Megan")])),
        ("place", .object(["latitude": .number(51.5), "longitude": .number(-0.12), "place": .string("Office")])),
        ("snapshot", .string("blob-1")),
        ("noise", .number(-32.5)),
        ("voice", .string("blob-2")),
        ("voice_free", nil),
    ]

    /// The valid answers with some replaced (nil value: sent as skipped) and extra ones appended.
    static func answers(_ changes: [String: JSONValue?] = [:], adding extra: [(String, JSONValue?)] = []) -> [SubmittedAnswer] {
        let replaced = valid.map { id, value in (id, changes.keys.contains(id) ? changes[id]! : value) }
        let unchangedKeys = Set(valid.map(\.0))
        let added = changes.filter { !unchangedKeys.contains($0.key) }.map { ($0.key, $0.value) }
        return (replaced + added + extra).map { SubmittedAnswer(questionID: $0.0, answer: $0.1) }
    }

    private func statuses(_ results: [ValidatedAnswer]) -> [String: AnswerStatus] {
        Dictionary(uniqueKeysWithValues: results.map { ($0.questionID, $0.status) })
    }

    @Test("Valid answers give one result per question, in survey order, in canonical form")
    func validAnswers() throws {
        let results = try AnswerValidator.validate(Self.answers(), against: Self.survey)
        #expect(results.map(\.questionID) == Self.survey.content.map(\.id))
        #expect(results.map(\.questionType) == Self.survey.content.map(\.type))
        let status = statuses(results)
        #expect(status["intro"] == .notPresented)
        #expect(status["voice_free"] == .noAnswerSelected)
        #expect(status["mood"] == .answered(.number(7.5)))
        #expect(status["food"] == .answered(.array([.string("Bread"), .string("Cake")])), "option order")
        #expect(status["doing"] == .answered(.array([.string("Talking"), .string("Knitting")])))
        #expect(status["working"] == .answered(.bool(false)))
        #expect(status["place"]?.value?.objectValue?["place"] == .string("Office"))
        #expect(results.filter { $0.status.value != nil }.count == Self.survey.content.count - 2)
    }

    @Test("Questions hidden by skip logic are NOT_PRESENTED, skipped ones NO_ANSWER_SELECTED")
    func hiddenAndSkipped() throws {
        let answers = Self.answers([
            "where": .string("Work"), "food": nil, "people": nil,
            "mood": .number(3), "steps": nil,
            "thought": .string("   "), "doing": .array([]), "story": .null,
        ])
        let status = statuses(try AnswerValidator.validate(answers, against: Self.survey))
        for hidden in ["intro", "food", "people", "steps"] {
            #expect(status[hidden] == .notPresented, "\(hidden)")
            #expect(status[hidden]?.beiweMarker == "NOT_PRESENTED")
        }
        for skipped in ["thought", "doing", "story", "voice_free"] {
            #expect(status[skipped] == .noAnswerSelected, "\(skipped)")
            #expect(status[skipped]?.beiweMarker == "NO_ANSWER_SELECTED")
        }
        #expect(status["where"]?.beiweMarker == nil)
    }

    @Test("Answers left out entirely count as skipped")
    func leftOutAnswers() throws {
        let results = try AnswerValidator.validate([SubmittedAnswer(questionID: "mood", answer: .number(0))], against: Self.survey)
        let status = statuses(results)
        #expect(status["mood"] == .answered(.number(0)))
        #expect(status["energy"] == .noAnswerSelected)
        #expect(status["food"] == .notPresented, "where was skipped, so where == 0 is false")
        #expect(status["people"] == .noAnswerSelected, "not (where == 1) holds when where was skipped")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let answers: [SubmittedAnswer]
        let questionID: String
        let reason: AnswerValidationError.Reason
        var testDescription: String { name }
    }

    /// An invalid answer counts as missing for later skip logic, so the cases below also leave
    /// out answers to questions that an invalid answer hides (see `allErrorsCollected`).
    static let cases: [Case] = [
        Case(name: "unknown question", answers: answers(adding: [("nope", .number(1))]), questionID: "nope", reason: .unknownQuestion),
        Case(name: "duplicate answer", answers: answers(adding: [("mood", .number(3))]), questionID: "mood", reason: .duplicateAnswer),
        Case(name: "answer to a hidden question", answers: answers(["where": .string("Work"), "people": nil]),
             questionID: "food", reason: .notPresented),
        Case(name: "answer to an info box", answers: answers(["intro": .string("ok")]), questionID: "intro", reason: .notPresented),
        Case(name: "slider given text", answers: answers(["mood": .string("7"), "steps": nil]), questionID: "mood", reason: .wrongType),
        Case(name: "slider above max", answers: answers(["mood": .number(10.5), "steps": nil]), questionID: "mood", reason: .outOfRange),
        Case(name: "slider below min", answers: answers(["energy": .number(0)]), questionID: "energy", reason: .outOfRange),
        Case(name: "slider off its steps", answers: answers(["mood": .number(7.3), "steps": nil]), questionID: "mood", reason: .outOfRange),
        Case(name: "number below min", answers: answers(["steps": .number(-10)]), questionID: "steps", reason: .outOfRange),
        Case(name: "number off its steps", answers: answers(["steps": .number(5_005)]), questionID: "steps", reason: .outOfRange),
        Case(name: "numeric free response given text", answers: answers(["coffees": .string("two")]),
             questionID: "coffees", reason: .wrongType),
        Case(name: "sound level given text", answers: answers(["noise": .string("loud")]), questionID: "noise", reason: .wrongType),
        Case(name: "single line with a line break", answers: answers(["thought": .string("a\nb")]),
             questionID: "thought", reason: .wrongType),
        Case(name: "text too long", answers: answers(["story": .string(String(repeating: "x", count: 10_001))]),
             questionID: "story", reason: .tooLong),
        Case(name: "text given a number", answers: answers(["story": .number(1)]), questionID: "story", reason: .wrongType),
        Case(name: "radio option not offered", answers: answers(["where": .string("Garden"), "food": nil]),
             questionID: "where", reason: .unknownOption),
        Case(name: "radio option by text when it has a value", answers: answers(["where": .string("Home"), "food": nil]),
             questionID: "where", reason: .unknownOption),
        Case(name: "radio given a list", answers: answers(["where": .array([.string("home")]), "food": nil]),
             questionID: "where", reason: .wrongType),
        Case(name: "checkbox option twice", answers: answers(["food": .array([.string("Soup"), .string("Soup")])]),
             questionID: "food", reason: .duplicateChoice),
        Case(name: "checkbox given a string", answers: answers(["food": .string("Soup")]), questionID: "food", reason: .wrongType),
        Case(name: "checkbox given numbers", answers: answers(["food": .array([.number(1)])]), questionID: "food", reason: .wrongType),
        Case(name: "checkbox option not offered", answers: answers(["food": .array([.string("Pie")])]),
             questionID: "food", reason: .unknownOption),
        Case(name: "people not offered", answers: answers(["people": .array([.string("Zed")])]),
             questionID: "people", reason: .unknownOption),
        Case(name: "too many tokens", answers: answers(["doing": .array([.string("a"), .string("b"), .string("c")])]),
             questionID: "doing", reason: .tooManyTokens),
        Case(name: "free token where only suggestions count", answers: answers(["chore": .array([.string("Ironing")])]),
             questionID: "chore", reason: .unknownOption),
        Case(name: "blank token", answers: answers(["doing": .array([.string("Talking"), .string(" ")])]),
             questionID: "doing", reason: .wrongType),
        Case(name: "token twice", answers: answers(["doing": .array([.string("Talking"), .string("Talking")])]),
             questionID: "doing", reason: .duplicateChoice),
        Case(name: "yes/no given text", answers: answers(["working": .string("yes")]), questionID: "working", reason: .wrongType),
        Case(name: "required question skipped", answers: answers(["mood": nil, "steps": nil]),
             questionID: "mood", reason: .requiredSkipped),
        Case(name: "required question left out", answers: answers().filter { $0.questionID != "mood" && $0.questionID != "steps" },
             questionID: "mood", reason: .requiredSkipped),
        Case(name: "29 February in a common year", answers: answers(["birthday": .string("2001-02-29")]),
             questionID: "birthday", reason: .malformedDate),
        Case(name: "date without leading zeros", answers: answers(["birthday": .string("2001-2-3")]),
             questionID: "birthday", reason: .malformedDate),
        Case(name: "date given a number", answers: answers(["birthday": .number(20_010_203)]),
             questionID: "birthday", reason: .wrongType),
        Case(name: "time 24:00", answers: answers(["woke": .string("24:00")]), questionID: "woke", reason: .malformedDate),
        Case(name: "date-time with a space", answers: answers(["last_meal": .string("2024-05-01 12:15")]),
             questionID: "last_meal", reason: .malformedDate),
        Case(name: "date-time with seconds", answers: answers(["last_meal": .string("2024-05-01T12:15:00")]),
             questionID: "last_meal", reason: .malformedDate),
        Case(name: "location without longitude", answers: answers(["place": .object(["latitude": .number(1)])]),
             questionID: "place", reason: .wrongType),
        Case(name: "latitude beyond 90", answers: answers(["place": .object(["latitude": .number(91), "longitude": .number(0)])]),
             questionID: "place", reason: .outOfRange),
        Case(name: "location with an unknown field",
             answers: answers(["place": .object(["latitude": .number(1), "longitude": .number(0), "venue": .string("x")])]),
             questionID: "place", reason: .wrongType),
        Case(name: "place text not a string",
             answers: answers(["place": .object(["latitude": .number(1), "longitude": .number(0), "place": .number(3)])]),
             questionID: "place", reason: .wrongType),
        Case(name: "photo reference not a string", answers: answers(["snapshot": .number(12)]),
             questionID: "snapshot", reason: .wrongType),
        Case(name: "recording reference too long", answers: answers(["voice": .string(String(repeating: "a", count: 300))]),
             questionID: "voice", reason: .tooLong),
    ]

    @Test("Each kind of wrong answer is rejected with a message naming the question", arguments: cases)
    func rejected(_ testCase: Case) throws {
        let failure = try #require(throws: AnswerValidationFailure.self) {
            try AnswerValidator.validate(testCase.answers, against: Self.survey)
        }
        #expect(failure.errors.count == 1, "\(failure.errors)")
        let found = try #require(failure.errors.first)
        #expect(found.questionID == testCase.questionID)
        #expect(found.reason == testCase.reason, "\(found.message)")
        #expect(found.message.contains("“\(testCase.questionID)”"), "\(found.message)")
    }

    @Test("All errors are reported together")
    func allErrorsCollected() {
        let answers = Self.answers(["mood": .string("high"), "birthday": .string("soon"), "where": .string("Mars")],
                                   adding: [("ghost", nil)])
        do {
            _ = try AnswerValidator.validate(answers, against: Self.survey)
            Issue.record("expected a failure")
        } catch {
            #expect(error.errors.map(\.questionID) == ["ghost", "mood", "where", "food", "birthday", "steps"])
            #expect(error.errors.map(\.reason) == [
                .unknownQuestion, .wrongType, .unknownOption, .notPresented, .malformedDate, .notPresented,
            ])
        }
    }

    @Test("Skip logic uses only the answers that passed validation")
    func skipLogicUsesValidatedAnswers() {
        // "where" is invalid, so it counts as missing: "food" (where == 0) is hidden, while
        // "people" (not where == 1) is shown.
        let answers = Self.answers(["where": .string("Mars"), "food": nil])
        do {
            _ = try AnswerValidator.validate(answers, against: Self.survey)
            Issue.record("expected a failure")
        } catch {
            #expect(error.errors.map(\.questionID) == ["where"])
        }
    }
}

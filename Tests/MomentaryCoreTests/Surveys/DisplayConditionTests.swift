import Foundation
import Testing
@testable import MomentaryCore

@Suite("Skip logic (display_if)")
struct DisplayConditionTests {
    /// Answers as the numbers they compare as; a missing key is a skipped question.
    private func holds(_ condition: DisplayCondition, _ values: [String: [Double]]) -> Bool {
        condition.isSatisfied { values[$0] ?? [] }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let op: ComparisonOperator
        let target: Double
        let whenBelow: Bool
        let whenEqual: Bool
        let whenAbove: Bool
        var testDescription: String { "x \(op.rawValue) \(target)" }
    }

    /// Each operator against an answer below, equal to and above the target (5).
    static let table: [Row] = [
        Row(op: .lessThan, target: 5, whenBelow: true, whenEqual: false, whenAbove: false),
        Row(op: .lessThanOrEqual, target: 5, whenBelow: true, whenEqual: true, whenAbove: false),
        Row(op: .greaterThan, target: 5, whenBelow: false, whenEqual: false, whenAbove: true),
        Row(op: .greaterThanOrEqual, target: 5, whenBelow: false, whenEqual: true, whenAbove: true),
        Row(op: .equal, target: 5, whenBelow: false, whenEqual: true, whenAbove: false),
        Row(op: .notEqual, target: 5, whenBelow: true, whenEqual: false, whenAbove: true),
    ]

    @Test("Each comparison operator", arguments: table)
    func comparison(_ row: Row) {
        let condition = DisplayCondition.compare(questionID: "x", row.op, row.target)
        #expect(holds(condition, ["x": [4]]) == row.whenBelow)
        #expect(holds(condition, ["x": [5]]) == row.whenEqual)
        #expect(holds(condition, ["x": [6.5]]) == row.whenAbove)
    }

    @Test("A comparison with a missing answer is false, != included", arguments: ComparisonOperator.allCases)
    func missingAnswerIsFalse(_ op: ComparisonOperator) {
        #expect(!holds(.compare(questionID: "x", op, 5), [:]))
        #expect(holds(.not(.compare(questionID: "x", op, 5)), [:]))
    }

    @Test("and, or, not", arguments: [false, true], [false, true])
    func connectives(a: Bool, b: Bool) {
        let values: [String: [Double]] = ["a": [a ? 1 : 0], "b": [b ? 1 : 0]]
        let isA = DisplayCondition.compare(questionID: "a", .equal, 1)
        let isB = DisplayCondition.compare(questionID: "b", .equal, 1)
        #expect(holds(.and([isA, isB]), values) == (a && b))
        #expect(holds(.or([isA, isB]), values) == (a || b))
        #expect(holds(.not(isA), values) == !a)
        #expect(holds(.not(.and([isA, .not(isB)])), values) == !(a && !b))
        #expect(holds(.and([isA]), values) == a)
        #expect(holds(.or([isB]), values) == b)
    }

    @Test("Multiple answers: a comparison holds if any value does, != if none equals")
    func multipleAnswers() {
        let chosen: [String: [Double]] = ["c": [0, 2]]
        #expect(holds(.compare(questionID: "c", .equal, 2), chosen))
        #expect(!holds(.compare(questionID: "c", .equal, 1), chosen))
        #expect(holds(.compare(questionID: "c", .lessThan, 1), chosen))
        #expect(!holds(.compare(questionID: "c", .notEqual, 2), chosen))
        #expect(holds(.compare(questionID: "c", .notEqual, 1), chosen))
    }

    @Test("Malformed conditions hide the question")
    func malformedIsFalse() {
        #expect(!holds(.malformed(.object(["?": .null]), reason: "test"), ["x": [1]]))
    }

    @Test("Answers compare as Beiwe compares them")
    func comparableValues() {
        let survey = SurveyFixtures.allKinds
        func values(_ id: String, _ answer: JSONValue) -> [Double] {
            survey.question(withID: id)!.comparableValues(of: answer)
        }
        #expect(values("mood", .number(7.5)) == [7.5])
        #expect(values("coffees", .number(2)) == [2])
        #expect(values("where", .string("home")) == [0])
        #expect(values("where", .string("Elsewhere")) == [2])
        #expect(values("food", .array([.string("Soup"), .string("Cake")])) == [1, 2])
        #expect(values("people", .array([.string("Josh")])) == [2])
        #expect(values("working", .bool(true)) == [1])
        #expect(values("working", .bool(false)) == [0])
        #expect(values("doing", .array([.string("Reading"), .string("Knitting")])) == [2])
        #expect(values("thought", .string("3")) == [])
        #expect(values("birthday", .string("2020-01-01")) == [])
        #expect(survey.question(withID: "mood")!.comparableValues(of: nil) == [])
    }

    @Test("A survey shows or hides questions from the answers so far")
    func surveyDisplay() throws {
        let survey = SurveyFixtures.allKinds
        let food = try #require(survey.question(withID: "food"))
        let steps = try #require(survey.question(withID: "steps"))
        let people = try #require(survey.question(withID: "people"))
        #expect(survey.isDisplayed(food, given: ["where": .string("home")]))
        #expect(!survey.isDisplayed(food, given: ["where": .string("Work")]))
        #expect(!survey.isDisplayed(food, given: [:]))
        #expect(survey.isDisplayed(steps, given: ["working": .bool(true), "mood": .number(1)]))
        #expect(survey.isDisplayed(steps, given: ["working": .bool(false), "mood": .number(6)]))
        #expect(!survey.isDisplayed(steps, given: ["working": .bool(false), "mood": .number(5)]))
        #expect(survey.isDisplayed(people, given: [:]))
        #expect(!survey.isDisplayed(people, given: ["where": .string("Work")]))
        #expect(survey.isDisplayed(survey.content[0], given: [:]))
    }

    @Test("Beiwe's JSON shape reads and writes back unchanged", arguments: [
        #"{"and": [{"<": ["a", 1]}, {"or": [{">=": ["b", 2.5]}, {"not": {"!=": ["c", 0]}}]}]}"#,
        #"{"<=": ["a", -3]}"#,
        #"{">": ["a", 10]}"#,
        #"{"==": ["a", 0]}"#,
        #"{"or": []}"#,
        #"{"nand": [1]}"#,
    ])
    func jsonRoundTrip(json: String) throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        let condition = try JSONDecoder().decode(DisplayCondition.self, from: Data(json.utf8))
        #expect(condition.json == value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(condition)) == value)
    }

    @Test("Referenced question ids are found at any depth")
    func referencedIDs() {
        let condition = DisplayCondition(json: .object(["and": .array([
            .object(["<": .array([.string("a"), .number(1)])]),
            .object(["not": .object(["or": .array([.object(["==": .array([.string("b"), .number(2)])])])])]),
        ])]))
        #expect(condition.referencedQuestionIDs == ["a", "b"])
    }
}

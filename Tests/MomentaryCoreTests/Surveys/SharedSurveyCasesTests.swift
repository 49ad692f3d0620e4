import Foundation
import Testing
@testable import MomentaryCore

/// Runs Tests/Shared/survey-cases.json, the cases the participant web app's survey-logic.js runs
/// too (Tests/Browser/test_survey_logic.py), so that skip logic and answer validation mean the
/// same in Swift and in JavaScript. A case this suite fails is a disagreement: fix the file or
/// both implementations, never one alone.
@Suite("Shared survey cases (the web app's survey-logic.js runs them too)")
struct SharedSurveyCasesTests {
    struct ExpectedError: Decodable, Hashable, Sendable, CustomStringConvertible {
        let questionID: String
        let reason: String
        enum CodingKeys: String, CodingKey { case questionID = "question_id", reason }
        var description: String { "\(questionID): \(reason)" }
    }

    struct ExpectedResult: Decodable, Hashable, Sendable, CustomStringConvertible {
        let questionID: String
        /// `answered`, `NO_ANSWER_SELECTED` or `NOT_PRESENTED`.
        let status: String
        let value: JSONValue?
        enum CodingKeys: String, CodingKey { case questionID = "question_id", status, value }

        init(questionID: String, status: String, value: JSONValue?) {
            self.questionID = questionID
            self.status = status
            self.value = value
        }

        init(_ result: ValidatedAnswer) {
            self.init(
                questionID: result.questionID, status: result.status.beiweMarker ?? "answered",
                value: result.status.value)
        }

        var description: String { "\(questionID): \(status)" + (value.map { " \($0)" } ?? "") }
    }

    struct PipedTexts: Decodable, Sendable, Equatable {
        let text: String
        let options: [String]?
    }

    struct ExpectedOrder: Decodable, Sendable {
        let order: [String]
        let valid: Bool
    }

    struct Expectation: Decodable, Sendable {
        let visible: [String]
        let valid: Bool
        let errors: [ExpectedError]
        /// Only for valid answers: the validator returns no results otherwise.
        let results: [ExpectedResult]?
        /// Score id → its value (null: missing), from the accepted answers.
        let scores: [String: JSONValue]?
        /// Question id → its texts piped with the accepted answers and the case's variables.
        let piped: [String: PipedTexts]?
        /// Presented orders and whether the survey's randomize_groups allow them.
        let orders: [ExpectedOrder]?
    }

    struct SharedCase: Sendable, CustomTestStringConvertible {
        let name: String
        let survey: JSONValue
        let answers: [SubmittedAnswer]
        let expect: Expectation
        let variables: [String: JSONValue]
        var testDescription: String { name }
    }

    static let casesURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Surveys
        .deletingLastPathComponent()  // MomentaryCoreTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Shared/survey-cases.json")

    struct FileError: Error, CustomStringConvertible {
        let description: String
    }

    static func loadCases() throws -> [SharedCase] {
        let file = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: casesURL))
        guard let cases = file.objectValue?["cases"]?.arrayValue else {
            throw FileError(description: "\(casesURL.path) has no “cases” list")
        }
        return try cases.enumerated().map { index, item in
            guard let object = item.objectValue, let name = object["name"]?.stringValue,
                  let survey = object["survey"], let answers = object["answers"], let expect = object["expect"]
            else { throw FileError(description: "case \(index + 1) needs name, survey, answers and expect") }
            // Answers and expectations go through the decoders the server uses (a missing
            // "answer" key and null both mean skipped).
            return SharedCase(
                name: name, survey: survey,
                answers: try decode([SubmittedAnswer].self, expanding: answers),
                expect: try decode(Expectation.self, expanding: expect), variables: object["variables"]?.objectValue ?? [:])
        }
    }

    /// Empty when the file cannot be read; `fileReads` then fails with the reason.
    static let cases: [SharedCase] = (try? loadCases()) ?? []

    @Test("The shared file reads, with many uniquely named cases")
    func fileReads() throws {
        let cases = try Self.loadCases()
        #expect(cases.count >= 60)
        #expect(Set(cases.map(\.name)).count == cases.count, "case names are unique")
    }

    @Test("Shared case", arguments: cases)
    func sharedCase(_ shared: SharedCase) throws {
        let survey = try SurveyDocument(json: shared.survey)
        let (visible, accepted) = Self.walk(survey, shared.answers, variables: shared.variables)
        #expect(visible == shared.expect.visible, "visible questions of “\(shared.name)”")
        for (id, expected) in shared.expect.scores ?? [:] {
            let value = survey.score(withID: id)?.value(given: accepted, in: survey)
            #expect((value.map(JSONValue.number) ?? .null) == expected, "score “\(id)” of “\(shared.name)”")
        }
        for (id, expected) in shared.expect.piped ?? [:] {
            let question = try #require(survey.question(withID: id), "“\(shared.name)” has no question “\(id)”")
            let piped = survey.piped(question, given: accepted, variables: shared.variables)
            let options = piped.kind.options.isEmpty ? nil : piped.kind.options.map(\.text.text)
            #expect(PipedTexts(text: piped.text.text, options: options) == expected, "piped texts of “\(id)” in “\(shared.name)”")
        }
        for expected in shared.expect.orders ?? [] {
            let issue = survey.presentedOrderIssue(expected.order)
            #expect((issue == nil) == expected.valid, "order \(expected.order) of “\(shared.name)”: \(issue ?? "allowed")")
        }
        do {
            let results = try AnswerValidator.validate(shared.answers, against: survey, variables: shared.variables)
            #expect(shared.expect.valid, "“\(shared.name)”: Swift accepts the answers, the case expects errors")
            #expect(shared.expect.errors.isEmpty, "“\(shared.name)”: expected errors")
            if let expected = shared.expect.results {
                #expect(results.map(ExpectedResult.init) == expected, "results of “\(shared.name)”")
            }
            // (try?: the catch below expects the validator's typed error; this does not throw.)
            let stored = try? survey.scoresJSONText(of: results)
            #expect(stored != nil || survey.scores.isEmpty, "stored scores of “\(shared.name)”")
            // The visibility walk below must mirror the validator: shown answerable questions are
            // exactly those it did not mark NOT_PRESENTED.
            let answerable = visible.filter { survey.question(withID: $0)?.type != .infoTextBox }
            #expect(results.filter { $0.status != .notPresented }.map(\.questionID) == answerable)
        } catch {
            let errors = error.errors.map { ExpectedError(questionID: $0.questionID, reason: $0.reason.rawValue) }
            #expect(!shared.expect.valid, "“\(shared.name)”: Swift refuses the answers: \(error)")
            #expect(errors == shared.expect.errors, "errors of “\(shared.name)”")
        }
    }

    /// The questions shown, in survey order, as `AnswerValidator.validate` decides them, and the
    /// answers accepted: display logic sees the first answer per known question once accepted
    /// (shown, valid, not skipped).
    static func walk(
        _ survey: SurveyDocument, _ answers: [SubmittedAnswer], variables: [String: JSONValue]
    ) -> (visible: [String], accepted: [String: JSONValue]) {
        var given: [String: JSONValue] = [:]
        var seen: Set<String> = []
        for answer in answers where survey.question(withID: answer.questionID) != nil {
            guard seen.insert(answer.questionID).inserted else { continue }
            if let value = answer.answer, !AnswerValidator.isSkipped(value) { given[answer.questionID] = value }
        }
        var accepted: [String: JSONValue] = [:]
        var visible: [String] = []
        for question in survey.content where survey.isDisplayed(question, given: accepted, variables: variables) {
            visible.append(question.id)
            guard question.type != .infoTextBox, let answer = given[question.id],
                  let value = try? AnswerValidator.canonicalAnswer(answer, for: question) else { continue }
            accepted[question.id] = value
        }
        return (visible, accepted)
    }

    /// Decodes `value` after replacing each `{"$repeat": text, "times": n}` by text repeated n times.
    private static func decode<T: Decodable>(_ type: T.Type, expanding value: JSONValue) throws -> T {
        try JSONDecoder().decode(type, from: JSONEncoder().encode(expandRepeats(value)))
    }

    static func expandRepeats(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items):
            return .array(items.map(expandRepeats))
        case .object(let object):
            if object.count == 2, let text = object["$repeat"]?.stringValue, let times = object["times"]?.numberValue {
                return .string(String(repeating: text, count: Int(times)))
            }
            return .object(object.mapValues(expandRepeats))
        default:
            return value
        }
    }
}

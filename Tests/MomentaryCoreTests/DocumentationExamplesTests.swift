import Foundation
import Testing
@testable import MomentaryCore

// Runs every JSON example of the researcher documentation (docs/surveys.md, docs/schedules.md,
// docs/languages.md)
// through the checks the server applies, so that the documentation cannot drift from the code.
//
// A fenced code block's info string says what it holds and whether it must pass:
// - ```` ```json survey ```` / ```` ```json-invalid survey ````: a survey document. Valid means
//   `SurveyDocument(jsonData:)` reads it and `problems()` is empty, as the survey editor and
//   `studies import` require.
// - ```` ```json answers ```` / ```` ```json-invalid answers ````: the `answers` list of
//   `POST /api/v1/responses`, checked by `AnswerValidator` against the nearest
//   ```` ```json survey ```` block above it in the same file.
// - ```` ```json schedule ```` / ```` ```json-invalid schedule ````: a fixed schedule document,
//   `FixedScheduleDocument.parse` (the website, the planner and `schedule preview --spec`).
// - ```` ```json signalling ```` / ```` ```json-invalid signalling ````: the signalling fields of a
//   study document, checked by `StudySignallingRules.problems()` (the website and `studies import`).
// - ```` ```json sampling ```` / ```` ```json-invalid sampling ````: `sampling_days` (and the
//   `ends_after_days` it is checked against) of a study document, read as `SamplingDays` and
//   checked by its `problems(studyEnd:)`.
//
// An ```` ```error ```` block right after a `json-invalid` block lists messages, one per line, that
// the refusal must include word for word. Blocks in other languages (`sh`, `text`, `csv`) are not
// checked; a `json…` block without a known kind is a failure, so no example escapes the checks.
@Suite("Documentation examples (docs/*.md)")
struct DocumentationExamplesTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // MomentaryCoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the package root

    static let documents = ["docs/surveys.md", "docs/schedules.md", "docs/languages.md"]

    /// One fenced code block: the line of its opening fence (from 1), its info string split into
    /// words, and its text.
    struct FencedBlock: Sendable {
        let line: Int
        let info: [String]
        let text: String
    }

    enum Kind: String, Sendable, CaseIterable {
        case survey, answers, schedule, signalling, sampling
    }

    struct Example: Sendable {
        let line: Int
        let kind: Kind
        /// `json` (must be accepted) rather than `json-invalid` (must be refused).
        let mustBeAccepted: Bool
        let text: String
        /// From the ```error block that follows a json-invalid block.
        var expectedMessages: [String] = []
    }

    enum Outcome: Sendable {
        case accepted
        case refused([String])
    }

    // MARK: - Reading the Markdown

    /// The fenced code blocks of a Markdown text, and the line of a fence left open at the end.
    static func fencedBlocks(in markdown: String) -> (blocks: [FencedBlock], unclosedLine: Int?) {
        var blocks: [FencedBlock] = []
        var open: (line: Int, info: [String], body: [String])?
        for (index, rawLine) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if var current = open {
                if line == "```" {
                    blocks.append(FencedBlock(line: current.line, info: current.info, text: current.body.joined(separator: "\n")))
                    open = nil
                } else {
                    current.body.append(String(rawLine))
                    open = current
                }
            } else if line.hasPrefix("```") {
                let info = line.dropFirst(3).split(whereSeparator: \.isWhitespace).map(String.init)
                open = (line: index + 1, info: info, body: [])
            }
        }
        return (blocks, open?.line)
    }

    /// The checked examples among the blocks, and every tagging mistake found.
    static func examples(from blocks: [FencedBlock], path: String) -> (examples: [Example], mistakes: [String]) {
        var examples: [Example] = []
        var mistakes: [String] = []
        var previousWasInvalidExample = false
        for block in blocks {
            let language = block.info.first ?? ""
            let place = "\(path):\(block.line)"
            if language == "error" {
                if previousWasInvalidExample, let last = examples.indices.last {
                    examples[last].expectedMessages = block.text.split(separator: "\n")
                        .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                        .filter { !$0.isEmpty }
                } else {
                    mistakes.append("\(place): an ```error block must come right after a ```json-invalid block")
                }
                previousWasInvalidExample = false
                continue
            }
            previousWasInvalidExample = false
            guard language.hasPrefix("json") else { continue }
            guard language == "json" || language == "json-invalid", block.info.count == 2,
                  let kind = Kind(rawValue: block.info[1])
            else {
                let kinds = Kind.allCases.map(\.rawValue).joined(separator: ", ")
                mistakes.append("\(place): tag JSON blocks ```json KIND or ```json-invalid KIND with KIND one of \(kinds), "
                    + "not ```\(block.info.joined(separator: " "))")
                continue
            }
            examples.append(Example(line: block.line, kind: kind, mustBeAccepted: language == "json", text: block.text))
            previousWasInvalidExample = language == "json-invalid"
        }
        return (examples, mistakes)
    }

    // MARK: - The checks the server applies

    /// The survey editor's check: readable, and without problems. The document when it passes.
    static func checkSurvey(_ text: String) -> (outcome: Outcome, document: SurveyDocument?) {
        let document: SurveyDocument
        do throws(SurveyFormatError) {
            document = try SurveyDocument(jsonData: Data(text.utf8))
        } catch {
            return (.refused([error.message]), nil)
        }
        let problems = document.problems()
        guard problems.isEmpty else { return (.refused(problems.map(\.message)), nil) }
        return (.accepted, document)
    }

    /// `POST /api/v1/responses`: the answers decode as the API decodes them, then `AnswerValidator`.
    static func checkAnswers(_ text: String, against survey: SurveyDocument) -> Outcome {
        let answers: [SubmittedAnswer]
        do {
            answers = try JSONDecoder().decode([SubmittedAnswer].self, from: Data(text.utf8))
        } catch {
            return .refused(["The answers are not a list of {\"question_id\": …, \"answer\": …} objects: \(error)"])
        }
        do throws(AnswerValidationFailure) {
            _ = try AnswerValidator.validate(answers, against: survey)
            return .accepted
        } catch {
            return .refused(error.errors.map(\.message))
        }
    }

    static func checkSchedule(_ text: String) -> Outcome {
        do throws(FixedScheduleError) {
            _ = try FixedScheduleDocument.parse(Data(text.utf8))
            return .accepted
        } catch {
            return .refused([error.description])
        }
    }

    /// The signalling fields of a study document (`momentary studies export`), named as there.
    /// Tests/Shared/hours-policy-cases.json describes its studies with the same fields.
    struct SignallingExcerpt: Decodable {
        struct BeepsPerDay: Decodable {
            let min: Int
            let max: Int
            let `default`: Int
        }

        struct Hours: Decodable {
            let start: TimeOfDay
            let end: TimeOfDay
        }

        let randomSampling: Bool?
        let defaultTimezone: String?
        let minGapMinutes: Int
        let beepsPerDay: BeepsPerDay
        let defaultHours: Hours
        /// Absent in every study written before hours policies: participants choose.
        let hoursPolicy: HoursPolicy?
        let earliestStart: TimeOfDay?
        let latestEnd: TimeOfDay?
        let minimumWindowMinutes: Int?
        let sampling: SamplingMethod?
        let samplingDays: SamplingDays?
        let answerWindowMinutes: Int?
        let completionMinutes: Int?
        let remindersAfterMinutes: [Int]?

        enum CodingKeys: String, CodingKey {
            case randomSampling = "random_sampling"
            case defaultTimezone = "default_timezone"
            case minGapMinutes = "min_gap_minutes"
            case beepsPerDay = "beeps_per_day"
            case defaultHours = "default_hours"
            case hoursPolicy = "hours_policy"
            case earliestStart = "earliest_start"
            case latestEnd = "latest_end"
            case minimumWindowMinutes = "minimum_window_minutes"
            case sampling
            case samplingDays = "sampling_days"
            case answerWindowMinutes = "answer_window_minutes"
            case completionMinutes = "completion_minutes"
            case remindersAfterMinutes = "reminders_after_minutes"
        }

        /// The answer window and reminders, checked as the website and `studies import` check them.
        var answerWindow: AnswerWindow {
            AnswerWindow(
                answerWindowMinutes: answerWindowMinutes, completionMinutes: completionMinutes ?? AnswerWindow.defaultCompletionMinutes,
                remindersAfterMinutes: remindersAfterMinutes ?? [])
        }

        /// The rules the website and `studies import` check, built from these fields.
        var rules: StudySignallingRules {
            StudySignallingRules(
                minBeepsPerDay: beepsPerDay.min, maxBeepsPerDay: beepsPerDay.max, defaultBeepsPerDay: beepsPerDay.default,
                minimumGapMinutes: minGapMinutes, defaultStart: defaultHours.start, defaultEnd: defaultHours.end,
                hoursPolicy: hoursPolicy ?? .participant, earliestStart: earliestStart, latestEnd: latestEnd,
                minimumWindowMinutes: minimumWindowMinutes)
        }
    }

    /// Every top-level field of a study document, so that an excerpt cannot show a misspelt one.
    static let studyDocumentFields: Set<String> = [
        "format", "slug", "name", "consent_text", "invitation_only", "scheduling", "random_sampling",
        "default_timezone", "min_gap_minutes", "beeps_per_day", "default_hours", "alert_text", "sounds",
        "max_due_at_once", "surveys", "ends_on", "ends_after_days", "feedback_enabled", "data_download_enabled",
        "public_statistics_enabled", "feedback_question", "hours_policy", "earliest_start", "latest_end",
        "minimum_window_minutes", "sampling", "sampling_days", "answer_window_minutes", "completion_minutes",
        "reminders_after_minutes", "reminder_alert_text",
    ]

    static func checkSignalling(_ text: String) -> Outcome {
        let data = Data(text.utf8)
        let excerpt: SignallingExcerpt
        do {
            let fields = try JSONDecoder().decode(JSONValue.self, from: data).objectValue?.keys.sorted() ?? []
            if let unknown = fields.first(where: { !studyDocumentFields.contains($0) }) {
                return .refused(["“\(unknown)” is not a field of a study document"])
            }
            excerpt = try JSONDecoder().decode(SignallingExcerpt.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            // A value the field's own type refuses (a time, an hours policy) says why in one sentence.
            return .refused([context.debugDescription])
        } catch {
            return .refused(["The signalling settings cannot be read: \(error)"])
        }
        var messages: [String] = []
        if let zone = excerpt.defaultTimezone, ParticipantTimeZone.zone(named: zone) == nil {
            messages.append("default_timezone “\(zone)” is not an IANA time zone")
        }
        messages += excerpt.rules.problems().map(\.message)
        messages += excerpt.answerWindow.problems().map(\.message)
        messages += excerpt.samplingDays?.problems() ?? []
        return messages.isEmpty ? .accepted : .refused(messages)
    }

    /// The measurement-burst fields of a study document, named as there.
    struct SamplingExcerpt: Decodable {
        let samplingDays: SamplingDays
        let endsAfterDays: Int?

        static let fields: Set = ["sampling_days", "ends_after_days"]

        enum CodingKeys: String, CodingKey {
            case samplingDays = "sampling_days"
            case endsAfterDays = "ends_after_days"
        }
    }

    static func checkSampling(_ text: String) -> Outcome {
        let data = Data(text.utf8)
        let excerpt: SamplingExcerpt
        do {
            let fields = try JSONDecoder().decode(JSONValue.self, from: data).objectValue?.keys.sorted() ?? []
            if let other = fields.first(where: { !SamplingExcerpt.fields.contains($0) }) {
                return .refused(["“\(other)” is not checked with sampling_days; show only sampling_days and ends_after_days"])
            }
            excerpt = try JSONDecoder().decode(SamplingExcerpt.self, from: data)
        } catch {
            return .refused(["sampling_days cannot be read: \(error)"])
        }
        let problems = excerpt.samplingDays.problems(studyEnd: StudyEnd(daysAfterRegistration: excerpt.endsAfterDays))
        return problems.isEmpty ? .accepted : .refused(problems)
    }

    // MARK: - Tests

    @Test("Every JSON example in the documentation is accepted, or refused as its json-invalid tag says",
          arguments: documents)
    func documentedExamples(path: String) throws {
        let url = Self.packageRoot.appendingPathComponent(path)
        let markdown = try String(contentsOf: url, encoding: .utf8)
        let (blocks, unclosedLine) = Self.fencedBlocks(in: markdown)
        if let unclosedLine {
            Issue.record("\(path):\(unclosedLine): this code block is never closed")
        }
        let (examples, mistakes) = Self.examples(from: blocks, path: path)
        for mistake in mistakes {
            Issue.record("\(mistake)")
        }
        #expect(examples.contains { $0.mustBeAccepted }, "\(path) has no ```json example")
        #expect(examples.contains { !$0.mustBeAccepted }, "\(path) has no ```json-invalid example")

        // Answers are checked against the nearest ```json survey block above them (nil when refused).
        var survey: SurveyDocument?
        for example in examples {
            let place = "\(path):\(example.line)"
            let outcome: Outcome
            switch example.kind {
            case .survey:
                let checked = Self.checkSurvey(example.text)
                outcome = checked.outcome
                if example.mustBeAccepted {
                    survey = checked.document
                }
            case .answers:
                guard let survey else {
                    Issue.record("\(place): the nearest ```json survey block above these answers is missing or refused")
                    continue
                }
                outcome = Self.checkAnswers(example.text, against: survey)
            case .schedule:
                outcome = Self.checkSchedule(example.text)
            case .signalling:
                outcome = Self.checkSignalling(example.text)
            case .sampling:
                outcome = Self.checkSampling(example.text)
            }
            switch (example.mustBeAccepted, outcome) {
            case (true, .accepted):
                break
            case (true, .refused(let messages)):
                let said = messages.joined(separator: " | ")
                Issue.record("\(place): this \(example.kind.rawValue) example must be accepted, but is refused: \(said)")
            case (false, .accepted):
                Issue.record("\(place): this json-invalid \(example.kind.rawValue) example is accepted; it must be refused")
            case (false, .refused(let messages)):
                let said = messages.joined(separator: " | ")
                for expected in example.expectedMessages where !messages.contains(expected) {
                    Issue.record("\(place): the refusal does not say “\(expected)”; it says: \(said)")
                }
            }
        }
    }

    @Test("The block reader finds tagged examples, their error lines and tagging mistakes")
    func blockReader() {
        let markdown = """
            Text.

            ```json survey
            {"content": [{"question_id": "q", "question_type": "yes_no", "question_text": "Q?"}]}
            ```

            ```json-invalid answers
            [{"question_id": "q", "answer": 1}]
            ```

            ```error
            Question “q” expects true (yes) or false (no), but the answer is the number 1.
            ```

            ```sh
            momentary schedule preview
            ```

            ```json
            {}
            ```

            ```error
            An error block after no invalid example.
            ```
            """
        let (blocks, unclosedLine) = Self.fencedBlocks(in: markdown)
        #expect(blocks.count == 6)
        #expect(unclosedLine == nil)
        let (examples, mistakes) = Self.examples(from: blocks, path: "sample.md")
        #expect(examples.map(\.kind) == [.survey, .answers])
        #expect(examples.map(\.mustBeAccepted) == [true, false])
        #expect(examples.first?.line == 3)
        #expect(examples.last?.expectedMessages
            == ["Question “q” expects true (yes) or false (no), but the answer is the number 1."])
        #expect(mistakes.count == 2, "an untagged ```json block and a stray ```error block: \(mistakes)")
        #expect(Self.fencedBlocks(in: "```json schedule\n{\"rules\": []}\n").unclosedLine == 1)

        // The checks themselves tell a good example from a bad one.
        guard case .accepted = Self.checkSurvey(examples[0].text).outcome,
              let survey = Self.checkSurvey(examples[0].text).document
        else {
            Issue.record("the sample survey should be accepted")
            return
        }
        guard case .refused(let messages) = Self.checkAnswers(examples[1].text, against: survey) else {
            Issue.record("the answer 1 to a yes/no question should be refused")
            return
        }
        #expect(messages == examples[1].expectedMessages)
        if case .accepted = Self.checkSchedule(#"{"rules": [{"weekly": {"days": ["mon"], "time": "9:00"}}]}"#) {
            Issue.record("a time without two hour digits should be refused")
        }
    }
}

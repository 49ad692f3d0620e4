import Foundation

/// The survey a Reporter user answered, worked out from their files: Reporter files carry each
/// answer's prompt and shape but not the questionnaire itself. One question per distinct prompt,
/// in the order prompts first appear; its kind follows from the shapes of its answers:
/// - `tokens` → a tokens question whose suggestions are the tokens seen;
/// - `answeredOptions` → yes/no when every answer is exactly `Yes` or `No`; otherwise a multiple
///   choice question when some answer has several options, else a single choice one, with the
///   options seen, in the order seen;
/// - `numericResponse` → a number; `textResponse` → multi-line free text;
///   `locationResponse` → a location.
public struct ReporterSurveyInference: Sendable {
    public private(set) var document: SurveyDocument
    /// The question id of each prompt.
    public private(set) var questionIDs: [String: String]

    /// A prompt answered in two incompatible shapes: the survey cannot be worked out.
    public struct Conflict: Error, Sendable, Hashable, CustomStringConvertible {
        public let prompt: String
        public let shapes: [String]
        public var description: String {
            "The question “\(prompt)” is answered as \(shapes.joined(separator: " and as ")); one question takes one kind of answer."
        }
    }

    public init(days: [ReporterDay]) throws(Conflict) {
        var order: [String] = []
        var seen: [String: Observed] = [:]
        for response in days.flatMap(\.snapshots).flatMap(\.responses) {
            if seen[response.questionPrompt] == nil { order.append(response.questionPrompt) }
            var observed = seen[response.questionPrompt] ?? Observed()
            observed.add(response.answer)
            seen[response.questionPrompt] = observed
        }
        var ids: [String: String] = [:]
        var questions: [SurveyQuestion] = []
        for prompt in order {
            let observed = seen[prompt]!
            guard observed.shapes.count == 1, let shape = observed.shapes.first else {
                throw Conflict(prompt: prompt, shapes: observed.shapes.sorted())
            }
            let id = Self.uniqueID(for: prompt, taken: Set(ids.values))
            ids[prompt] = id
            questions.append(SurveyQuestion(id: id, text: LocalizedText(prompt), kind: observed.kind(for: shape)))
        }
        document = SurveyDocument(content: questions)
        questionIDs = ids
    }

    /// A readable id from the prompt (`what_are_you_doing`), made unique with a number.
    static func uniqueID(for prompt: String, taken: Set<String>) -> String {
        var words: [String] = []
        var word = ""
        for character in prompt.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        var base = String(words.joined(separator: "_").prefix(40))
        if base.isEmpty { base = "question" }
        var candidate = base
        var number = 2
        while taken.contains(candidate) {
            candidate = "\(base)_\(number)"
            number += 1
        }
        return candidate
    }

    private struct Observed {
        var shapes: Set<String> = []
        var values: [String] = []
        var valueSet: Set<String> = []
        var severalAtOnce = false

        mutating func add(_ answer: ReporterAnswer) {
            switch answer {
            case .tokens(let items):
                shapes.insert("tokens")
                remember(items)
            case .options(let items):
                shapes.insert("answeredOptions")
                remember(items)
                if items.count > 1 { severalAtOnce = true }
            case .number: shapes.insert("numericResponse")
            case .text: shapes.insert("textResponse")
            case .location: shapes.insert("locationResponse")
            }
        }

        private mutating func remember(_ items: [String]) {
            for item in items where valueSet.insert(item).inserted {
                values.append(item)
            }
        }

        func kind(for shape: String) -> QuestionKind {
            switch shape {
            case "tokens":
                return .tokens(TokenList(suggestions: values))
            case "answeredOptions":
                if !severalAtOnce, valueSet.isSubset(of: [ReporterAnswerMapping.yes, ReporterAnswerMapping.no]) { return .yesNo }
                let options = values.map { ChoiceOption(LocalizedText($0)) }
                return severalAtOnce ? .checkbox(options) : .radioButton(options)
            case "numericResponse": return .number(NumberRange())
            case "textResponse": return .freeResponse(.multiLineText)
            default: return .location
            }
        }
    }
}

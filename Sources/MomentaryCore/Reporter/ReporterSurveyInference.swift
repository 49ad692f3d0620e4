import Foundation

/// The survey a Reporter user answered, worked out from their files: Reporter files carry each
/// answer's prompt and shape (and later versions a `questions` list of prompts and types) but not
/// the questionnaire itself.
///
/// One question per prompt and answer shape, in the order first seen: a prompt whose answers
/// changed shape between app versions ("How happy are you?" as options in 2014, as a number in
/// 2015) becomes one question per shape, all with that prompt, so every answer keeps its own kind.
/// A skipped question (prompt alone) belongs to the prompt's question of the shape its `questions`
/// entry names, else to the prompt's first question. The kind follows from the answers:
/// - `tokens` → a tokens question whose suggestions are the tokens seen;
/// - `answeredOptions` → yes/no when every answer is exactly `Yes` or `No`; otherwise a multiple
///   choice question when some answer has several options, else a single choice one, with the
///   options seen, in the order seen;
/// - `numericResponse` → a number; `textResponse(s)` → multi-line free text;
///   `locationResponse` → a location.
/// A prompt never answered (only skipped, or only listed) takes its kind from its listed type:
/// tokens for tokens and people, yes/no, location, number, and free text otherwise.
public struct ReporterSurveyInference: Sendable {
    public private(set) var document: SurveyDocument
    private let ids: [Slot: String]
    private let slotOfSkipped: [String: Slot]

    private struct Slot: Hashable {
        let prompt: String
        let shape: String
    }

    public init(days: [ReporterDay]) {
        var listedShape: [String: String] = [:]
        var listedOrder: [String] = []
        for question in days.compactMap(\.questions).joined() {
            if listedShape[question.prompt] == nil { listedOrder.append(question.prompt) }
            listedShape[question.prompt] = question.shapeName ?? listedShape[question.prompt]
        }
        let responses = days.flatMap(\.snapshots).flatMap(\.responses)
        var observed: [Slot: Observed] = [:]
        var firstSlot: [String: Slot] = [:]
        for response in responses {
            guard let answer = response.answer else { continue }
            let slot = Slot(prompt: response.questionPrompt, shape: answer.shapeName)
            observed[slot, default: Observed()].add(answer)
            if firstSlot[slot.prompt] == nil { firstSlot[slot.prompt] = slot }
        }
        var slotOfSkipped: [String: Slot] = [:]
        for prompt in Set(responses.map(\.questionPrompt)).union(listedOrder) {
            let listed = listedShape[prompt].map { Slot(prompt: prompt, shape: $0) }
            slotOfSkipped[prompt] = listed.flatMap { observed[$0] == nil ? nil : $0 } ?? firstSlot[prompt]
                ?? Slot(prompt: prompt, shape: listed?.shape ?? "textResponse")
        }
        var order: [Slot] = []
        var ordered: Set<Slot> = []
        let seenSlots = responses.map { response in
            response.answer.map { Slot(prompt: response.questionPrompt, shape: $0.shapeName) } ?? slotOfSkipped[response.questionPrompt]!
        }
        for slot in seenSlots + listedOrder.map({ slotOfSkipped[$0]! }) where ordered.insert(slot).inserted {
            order.append(slot)
        }
        var ids: [Slot: String] = [:]
        var questions: [SurveyQuestion] = []
        for slot in order {
            let id = Self.uniqueID(for: slot.prompt, taken: Set(ids.values))
            ids[slot] = id
            let kind = (observed[slot] ?? Observed()).kind(for: slot.shape, listedType: days.listedType(of: slot.prompt))
            questions.append(SurveyQuestion(id: id, text: LocalizedText(slot.prompt), kind: kind))
        }
        document = SurveyDocument(content: questions)
        self.ids = ids
        self.slotOfSkipped = slotOfSkipped
    }

    /// The id of the question `response` answers (or skipped).
    public func questionID(for response: ReporterResponse) -> String? {
        let slot = response.answer.map { Slot(prompt: response.questionPrompt, shape: $0.shapeName) } ?? slotOfSkipped[response.questionPrompt]
        return slot.flatMap { ids[$0] }
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
        var values: [String] = []
        var valueSet: Set<String> = []
        var severalAtOnce = false

        mutating func add(_ answer: ReporterAnswer) {
            switch answer {
            case .tokens(let items):
                remember(items)
            case .options(let items):
                remember(items)
                if items.count > 1 { severalAtOnce = true }
            case .number, .text, .location: break
            }
        }

        private mutating func remember(_ items: [String]) {
            for item in items where valueSet.insert(item).inserted {
                values.append(item)
            }
        }

        func kind(for shape: String, listedType: Int?) -> QuestionKind {
            switch shape {
            case "tokens":
                return .tokens(TokenList(suggestions: values))
            case "answeredOptions":
                // A choice question needs its options: one never answered is asked as text.
                if values.isEmpty { return listedType == 2 ? .yesNo : .freeResponse(.multiLineText) }
                if !severalAtOnce, valueSet.isSubset(of: [ReporterAnswerMapping.yes, ReporterAnswerMapping.no]) { return .yesNo }
                let options = values.map { ChoiceOption(LocalizedText($0)) }
                return severalAtOnce ? .checkbox(options) : .radioButton(options)
            case "numericResponse": return .number(NumberRange())
            case "locationResponse": return .location
            default: return .freeResponse(.multiLineText)
            }
        }
    }
}

extension [ReporterDay] {
    /// The type a `questions` list gives the prompt (the latest list that names it).
    fileprivate func listedType(of prompt: String) -> Int? {
        compactMap(\.questions).joined().last { $0.prompt == prompt }?.questionType
    }
}

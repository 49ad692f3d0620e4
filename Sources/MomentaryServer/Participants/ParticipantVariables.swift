import Foundation
import MomentaryCore

/// One participant variable a study keeps: `{"id": "partner_name", "type": "text", "label":
/// "Partner's first name", "from_registration": "partner"}`. Researchers set it on the
/// participant's page or through the research API, or the participant's registration answer to
/// `from_registration` sets it. Piped texts name it as `{{var:partner_name}}`, conditions as
/// `var:partner_name`; the wide export has a `var_partner_name` column.
struct ParticipantVariableDefinition: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable, CaseIterable {
        case text, number
    }

    var id: String
    var type: Kind
    /// What the variable means, for researchers.
    var label: String
    /// The registration survey's question whose answer sets it, if any.
    var fromRegistration: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, type, label
        case fromRegistration = "from_registration"
    }
}

/// The rules of participant variables, the same for the website, the research API, study import
/// and registration.
enum ParticipantVariables {
    static let maximumCount = 50
    static let maximumLabelLength = 200
    /// The longest text value, in characters.
    static let maximumTextLength = 500

    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// What is wrong with a study's definitions, each a sentence; empty when usable.
    static func problems(_ definitions: [ParticipantVariableDefinition], registration: SurveyDocument?) -> [String] {
        var problems: [String] = []
        if definitions.count > maximumCount { problems.append("A study keeps at most \(maximumCount) participant variables.") }
        var seen: Set<String> = []
        for (index, definition) in definitions.enumerated() {
            let name = "Participant variable \(index + 1)" + (definition.id.isEmpty ? "" : " (“\(definition.id)”)")
            if !QuestionIdentifier.isValid(definition.id) {
                problems.append("\(name): its id must be a plain name (\(QuestionIdentifier.rule)).")
            } else if !seen.insert(definition.id).inserted {
                problems.append("\(name): the id “\(definition.id)” is used twice.")
            }
            let label = definition.label.trimmingCharacters(in: .whitespacesAndNewlines)
            if label.isEmpty || label.count > maximumLabelLength {
                problems.append("\(name): its label must be 1–\(maximumLabelLength) characters.")
            }
            if let source = definition.fromRegistration, let issue = sourceIssue(source, for: definition, registration: registration) {
                problems.append("\(name): \(issue).")
            }
        }
        return problems
    }

    /// Why a registration question cannot set the variable, if it cannot.
    private static func sourceIssue(_ questionID: String, for definition: ParticipantVariableDefinition, registration: SurveyDocument?) -> String? {
        guard let registration else { return "from_registration names “\(questionID)”, but the study has no registration survey" }
        guard let question = registration.question(withID: questionID) else {
            return "from_registration names “\(questionID)”, which is not a question of the registration survey"
        }
        switch (definition.type, question.kind) {
        case (.number, .slider), (.number, .number), (.number, .freeResponse(.numeric)):
            return nil
        case (.text, .freeResponse), (.text, .radioButton), (.text, .date), (.text, .time), (.text, .dateTime):
            return nil
        default:
            return "from_registration names “\(questionID)”, a \(question.type.rawValue) question, whose answer is not a \(definition.type.rawValue)"
        }
    }

    /// A value as stored, or nil to clear it: a number variable takes a finite number (or its
    /// digits, as a form sends them); a text variable a text of at most `maximumTextLength`
    /// characters, trimmed. Null and empty texts clear.
    static func value(_ given: JSONValue, for definition: ParticipantVariableDefinition) throws(Refusal) -> JSONValue? {
        if given == .null { return nil }
        switch definition.type {
        case .number:
            if let number = given.numberValue, number.isFinite { return .number(number) }
            if let text = given.stringValue?.trimmingCharacters(in: .whitespaces) {
                if text.isEmpty { return nil }
                if let number = Double(text), number.isFinite { return .number(number) }
            }
            throw Refusal(description: "“\(definition.id)” is a number variable; \(describe(given)) is not a number.")
        case .text:
            guard let text = given.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) else {
                throw Refusal(description: "“\(definition.id)” is a text variable; give it a text, not \(describe(given)).")
            }
            if text.isEmpty { return nil }
            guard text.count <= maximumTextLength else {
                throw Refusal(description: "“\(definition.id)” may be at most \(maximumTextLength) characters; it has \(text.count).")
            }
            return .string(text)
        }
    }

    /// `current` with `changes` (name → value, null to clear) applied, or a refusal naming the first problem.
    static func applying(
        _ changes: [String: JSONValue], to current: [String: JSONValue], definitions: [ParticipantVariableDefinition]
    ) throws(Refusal) -> [String: JSONValue] {
        var values = current
        for (name, given) in changes.sorted(by: { $0.key < $1.key }) {
            guard let definition = definitions.first(where: { $0.id == name }) else {
                let known = definitions.isEmpty ? "the study keeps no participant variables"
                    : "its variables are " + definitions.map { "“\($0.id)”" }.joined(separator: ", ")
                throw Refusal(description: "“\(name)” is not one of the study's participant variables; \(known).")
            }
            values[name] = try value(given, for: definition)
        }
        return values
    }

    /// The values registration answers set (validated answers of the registration survey).
    static func fromRegistration(_ results: [ValidatedAnswer], definitions: [ParticipantVariableDefinition]) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for definition in definitions {
            guard let source = definition.fromRegistration,
                  let answer = results.first(where: { $0.questionID == source })?.status.value,
                  let value = try? value(answer, for: definition) else { continue }
            values[definition.id] = value
        }
        return values
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "“\(text.prefix(40))”"
        case .number(let number): "\(number)"
        case .bool(let flag): flag ? "true" : "false"
        case .array: "a list"
        case .object: "an object"
        case .null: "null"
        }
    }
}

extension Study {
    /// The study's participant variables, in the order the researchers gave.
    var participantVariables: [ParticipantVariableDefinition] {
        get { Self.participantVariables(stored: participantVariablesJSON) }
        set {
            participantVariablesJSON = newValue.isEmpty
                ? nil : String(decoding: (try? JSONEncoder().encode(newValue)) ?? Data("[]".utf8), as: UTF8.self)
        }
    }

    /// The definitions in a stored `participant_variables` column: none when nil or unreadable.
    /// Also for readers that query the column without loading the model (exports).
    static func participantVariables(stored text: String?) -> [ParticipantVariableDefinition] {
        guard let text else { return [] }
        return (try? JSONDecoder().decode([ParticipantVariableDefinition].self, from: Data(text.utf8))) ?? []
    }
}

extension Participant {
    /// The participant's variables by name (only those set).
    var variables: [String: JSONValue] {
        get {
            guard let text = variablesJSON else { return [:] }
            return (try? JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))) ?? [:]
        }
        set {
            variablesJSON = newValue.isEmpty ? nil : try? JSONValue.object(newValue).sortedKeysJSONText()
        }
    }
}

import Foundation

/// How conditions name a participant variable: `var:partner_name`, in place of a question id
/// (`{"==": ["var:group", "evening"]}`, `{">=": ["var:baseline", 3]}`).
///
/// A number variable compares as its number. A text variable is compared with a text, only by
/// `==` (the same text) and `!=` (another text). A variable without a value (or an empty text),
/// or compared with the other kind, makes the comparison false, as a skipped answer does.
/// survey-logic.js follows the same rules (Tests/Shared/survey-cases.json).
public enum ParticipantVariableReference {
    public static let prefix = "var:"

    /// The variable's name when `id` names one.
    public static func name(in id: String) -> String? {
        id.hasPrefix(prefix) ? String(id.dropFirst(prefix.count)) : nil
    }

    /// The numbers a variable compares as: its number, or nothing.
    static func comparableValues(of value: JSONValue?) -> [Double] {
        value?.numberValue.map { [$0] } ?? []
    }
}

extension DisplayCondition {
    /// The condition with every comparison of a text variable decided (`and []` holds, `or []`
    /// does not), so that what remains compares numbers only.
    func resolvingTextVariables(_ variables: [String: JSONValue]) -> DisplayCondition {
        switch self {
        case .and(let nodes): return .and(nodes.map { $0.resolvingTextVariables(variables) })
        case .or(let nodes): return .or(nodes.map { $0.resolvingTextVariables(variables) })
        case .not(let node): return .not(node.resolvingTextVariables(variables))
        case .matches(let id, let comparison, let text):
            guard let name = ParticipantVariableReference.name(in: id) else { return self }
            guard let value = variables[name]?.stringValue, !value.isEmpty else { return .or([]) }
            let holds = switch comparison {
            case .equal: value == text
            case .notEqual: value != text
            default: false
            }
            return holds ? .and([]) : .or([])
        case .compare, .malformed:
            return self
        }
    }
}

extension SurveyDocument {
    /// The participant variables this survey names: in `display_if`, piped texts (every
    /// language) and follow-up conditions. The study checks that it keeps them; apps are sent
    /// the participant's values of these only.
    public var variableNames: Set<String> {
        var names: Set<String> = []
        var conditions = content.compactMap(\.displayIf)
        conditions += followUpRules.compactMap { $0?.when }
        for condition in conditions {
            for id in condition.referencedQuestionIDs { if let name = ParticipantVariableReference.name(in: id) { names.insert(name) } }
        }
        for question in content {
            for case (_, .placeholder(let placeholder, _)) in question.pipedPlaceholders where placeholder.source == .variable {
                names.insert(placeholder.name)
            }
        }
        return names
    }
}

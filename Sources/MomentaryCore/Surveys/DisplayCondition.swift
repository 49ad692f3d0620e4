import Foundation

/// A comparison operator of Beiwe's skip logic.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case lessThan = "<"
    case greaterThan = ">"
    case lessThanOrEqual = "<="
    case greaterThanOrEqual = ">="
    case equal = "=="
    case notEqual = "!="
}

/// A question's `display_if` skip logic, in Beiwe's shape:
/// `{"and": [nodes]}`, `{"or": [nodes]}`, `{"not": node}` and comparisons such as
/// `{"<": ["question_id", 3]}` with `< > <= >= == !=`.
///
/// Comparisons are numeric, as in Beiwe. What an answer compares as:
/// - slider, number, numeric free response, sound level: the number;
/// - radio button: the chosen option's position, counting from 0 (Beiwe's rule);
/// - checkbox, people: the positions of the chosen options; tokens: the positions of the chosen
///   suggested tokens (free entries have none) — the comparison holds if *any* position satisfies
///   it, except `!=`, which holds if *none* equals the value;
/// - yes/no: yes 1, no 0;
/// - other kinds (text, dates, location, …): nothing, so every comparison is false.
///
/// A comparison with a question that was skipped or not presented is false — for `!=` too — as
/// in Beiwe. So `{"not": {"==": [q, 1]}}` holds when `q` was skipped, `{"!=": [q, 1]}` does not.
///
/// A node that cannot be read is kept as `malformed` (so the document still round-trips and
/// `SurveyDocument.problems()` can report it); it evaluates to false.
public indirect enum DisplayCondition: Sendable, Hashable {
    case and([DisplayCondition])
    case or([DisplayCondition])
    case not(DisplayCondition)
    case compare(questionID: String, ComparisonOperator, Double)
    /// `{"==": ["where", "work"]}`: a choice question's option (or a suggested token) named by
    /// its stored value rather than its position, so reordering the options changes nothing.
    /// Only `==` and `!=` make sense; the document resolves the value to its position
    /// (`SurveyDocument.isDisplayed`), and an unknown value is never chosen.
    case matches(questionID: String, ComparisonOperator, String)
    case malformed(JSONValue, reason: String)

    /// Every question id this condition compares against, in order of appearance.
    public var referencedQuestionIDs: [String] {
        switch self {
        case .and(let nodes), .or(let nodes): nodes.flatMap(\.referencedQuestionIDs)
        case .not(let node): node.referencedQuestionIDs
        case .compare(let questionID, _, _), .matches(let questionID, _, _): [questionID]
        case .malformed: []
        }
    }

    /// Evaluates the condition. `values` gives, for a question id, the numbers its answer
    /// compares as (see above); empty when the question has no usable answer.
    public func isSatisfied(by values: (String) -> [Double]) -> Bool {
        switch self {
        case .and(let nodes):
            return nodes.allSatisfy { $0.isSatisfied(by: values) }
        case .or(let nodes):
            return nodes.contains { $0.isSatisfied(by: values) }
        case .not(let node):
            return !node.isSatisfied(by: values)
        case .compare(let questionID, let comparison, let target):
            let numbers = values(questionID)
            guard !numbers.isEmpty else { return false }
            switch comparison {
            case .lessThan: return numbers.contains { $0 < target }
            case .greaterThan: return numbers.contains { $0 > target }
            case .lessThanOrEqual: return numbers.contains { $0 <= target }
            case .greaterThanOrEqual: return numbers.contains { $0 >= target }
            case .equal: return numbers.contains { $0 == target }
            case .notEqual: return !numbers.contains { $0 == target }
            }
        case .matches, .malformed:
            // A value must first be resolved to its position (`resolvingValues`).
            return false
        }
    }

    /// The condition with every option value replaced by its position, as `position(id, value)`
    /// gives it; a value no option has becomes a position no answer has (-1).
    public func resolvingValues(_ position: (String, String) -> Int?) -> DisplayCondition {
        switch self {
        case .and(let nodes): .and(nodes.map { $0.resolvingValues(position) })
        case .or(let nodes): .or(nodes.map { $0.resolvingValues(position) })
        case .not(let node): .not(node.resolvingValues(position))
        case .matches(let questionID, let comparison, let value):
            .compare(questionID: questionID, comparison, Double(position(questionID, value) ?? -1))
        case .compare, .malformed: self
        }
    }
}

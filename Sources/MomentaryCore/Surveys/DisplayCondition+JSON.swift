import Foundation

extension DisplayCondition {
    /// Reads a `display_if` node. Never fails: what cannot be read becomes `.malformed` with the
    /// reason, so all problems of a document can be listed together.
    public init(json: JSONValue) {
        guard let object = json.objectValue, object.count == 1, let (key, payload) = object.first else {
            self = .malformed(json, reason: "a condition must be an object with exactly one operator key, "
                + "such as {\"and\": […]}, but found \(SurveyMessages.describe(json))")
            return
        }
        switch key {
        case "and", "or":
            guard let items = payload.arrayValue else {
                let found = SurveyMessages.describe(payload)
                self = .malformed(json, reason: "“\(key)” takes a list of conditions, found \(found)")
                return
            }
            let nodes = items.map(DisplayCondition.init(json:))
            self = key == "and" ? .and(nodes) : .or(nodes)
        case "not":
            guard payload.objectValue != nil else {
                self = .malformed(json, reason: "“not” takes one condition object, found \(SurveyMessages.describe(payload))")
                return
            }
            self = .not(DisplayCondition(json: payload))
        default:
            guard let comparison = ComparisonOperator(rawValue: key) else {
                let known = (["and", "or", "not"] + ComparisonOperator.allCases.map(\.rawValue)).joined(separator: " ")
                self = .malformed(json, reason: "unknown operator “\(key)” (known: \(known))")
                return
            }
            self = Self.comparison(comparison, payload: payload, json: json)
        }
    }

    private static func comparison(_ comparison: ComparisonOperator, payload: JSONValue, json: JSONValue) -> DisplayCondition {
        let op = comparison.rawValue
        guard let items = payload.arrayValue, items.count == 2 else {
            return .malformed(json, reason: "“\(op)” takes exactly two items, [question_id, number], "
                + "found \(SurveyMessages.describe(payload))")
        }
        guard let questionID = items[0].stringValue else {
            return .malformed(json, reason: "the first item of “\(op)” must be a question id string, "
                + "found \(SurveyMessages.describe(items[0]))")
        }
        if let value = items[1].stringValue {
            return .matches(questionID: questionID, comparison, value)
        }
        guard let target = items[1].numberValue else {
            return .malformed(json, reason: "the second item of “\(op)” must be a number, or an option's value as a string, "
                + "found \(SurveyMessages.describe(items[1]))")
        }
        return .compare(questionID: questionID, comparison, target)
    }

    /// The condition in Beiwe's JSON shape; a malformed node is written back unchanged.
    public var json: JSONValue {
        switch self {
        case .and(let nodes): .object(["and": .array(nodes.map(\.json))])
        case .or(let nodes): .object(["or": .array(nodes.map(\.json))])
        case .not(let node): .object(["not": node.json])
        case .compare(let questionID, let comparison, let target):
            .object([comparison.rawValue: .array([.string(questionID), .number(target)])])
        case .matches(let questionID, let comparison, let value):
            .object([comparison.rawValue: .array([.string(questionID), .string(value)])])
        case .malformed(let original, _): original
        }
    }
}

extension DisplayCondition: Codable {
    public init(from decoder: Decoder) throws {
        self.init(json: try JSONValue(from: decoder))
    }

    public func encode(to encoder: Encoder) throws {
        try json.encode(to: encoder)
    }
}

import Foundation

/// Describes a JSON decoding failure in one sentence that names the offending field by its path.
enum DecodingErrorDescription {
    static func sentence(for error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "The field “\(path(context.codingPath + [key]))” is missing."
        case .typeMismatch(let type, let context):
            return "The field “\(path(context.codingPath))” has the wrong type; expected \(describe(type))."
        case .valueNotFound(let type, let context):
            return "The field “\(path(context.codingPath))” is null; expected \(describe(type))."
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return "The request body is not valid JSON."
            }
            return "The field “\(path(context.codingPath))” is invalid: \(context.debugDescription)"
        @unknown default:
            return "The request body could not be read."
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "(body)" }
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "\(type)"
        }
    }
}

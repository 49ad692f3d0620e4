import Foundation

/// Wording shared by the survey error messages.
public enum SurveyMessages {
    /// A few words saying what a JSON value is: `the string “abc”`, `a list of 3 items`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): "the number \(Self.number(number))"
        case .string(let text): text.count <= 40 ? "the string “\(text)”" : "a string of \(text.count) characters"
        case .array(let items): items.count == 1 ? "a list of 1 item" : "a list of \(items.count) items"
        case .object: "an object"
        }
    }

    /// `5` rather than `5.0` for whole numbers.
    /// A number as people write it: whole numbers without “.0”.
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    public static func capitalizingFirst(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}

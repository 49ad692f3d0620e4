import Foundation

/// Reads the fields of one JSON object, remembering which keys it used so the rest can be kept
/// as extras (a document must round-trip without loss). Errors name `context` and the key.
///
/// `null` counts as absent: Beiwe writes `"display_if": null` for questions without logic.
struct JSONObjectReader {
    private let object: [String: JSONValue]
    private var usedKeys: Set<String> = []
    let context: String

    init(_ object: [String: JSONValue], context: String) {
        self.object = object
        self.context = context
    }

    /// The keys not read so far, with their values.
    var unreadFields: [String: JSONValue] {
        object.filter { !usedKeys.contains($0.key) }
    }

    mutating func value(_ key: String) -> JSONValue? {
        usedKeys.insert(key)
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    mutating func string(_ key: String) throws(SurveyFormatError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw mismatch(key, expected: "a string", found: value) }
        return text
    }

    /// A text a participant reads: a string, or an object of language tags and strings.
    mutating func localizedText(_ key: String) throws(SurveyFormatError) -> LocalizedText? {
        guard let value = value(key) else { return nil }
        guard let text = LocalizedText(json: value) else {
            throw mismatch(key, expected: "a string or an object of language tags and strings", found: value)
        }
        return text
    }

    mutating func localizedTextArray(_ key: String) throws(SurveyFormatError) -> [LocalizedText]? {
        guard let value = value(key) else { return nil }
        let expected = "a list of strings (or of objects of language tags and strings)"
        guard let items = value.arrayValue else { throw mismatch(key, expected: expected, found: value) }
        var texts: [LocalizedText] = []
        for item in items {
            guard let text = LocalizedText(json: item) else { throw mismatch(key, expected: expected, found: value) }
            texts.append(text)
        }
        return texts
    }

    /// A number; a numeric string is accepted too, because Beiwe's editor writes `"max": "5"`.
    mutating func number(_ key: String) throws(SurveyFormatError) -> Double? {
        guard let value = value(key) else { return nil }
        if let number = value.numberValue { return number }
        if let text = value.stringValue,
           let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite {
            return number
        }
        throw mismatch(key, expected: "a number", found: value)
    }

    mutating func integer(_ key: String) throws(SurveyFormatError) -> Int? {
        guard let number = try number(key) else { return nil }
        guard number == number.rounded(), abs(number) < 1e15 else {
            throw SurveyFormatError("\(context): “\(key)” must be a whole number, found \(SurveyMessages.number(number)).")
        }
        return Int(number)
    }

    mutating func bool(_ key: String) throws(SurveyFormatError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else { throw mismatch(key, expected: "true or false", found: value) }
        return flag
    }

    mutating func stringArray(_ key: String) throws(SurveyFormatError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard let items = value.arrayValue else { throw mismatch(key, expected: "a list of strings", found: value) }
        var strings: [String] = []
        for item in items {
            guard let text = item.stringValue else {
                throw mismatch(key, expected: "a list of strings", found: value)
            }
            strings.append(text)
        }
        return strings
    }

    mutating func objectArray(_ key: String) throws(SurveyFormatError) -> [[String: JSONValue]]? {
        guard let value = value(key) else { return nil }
        let objects = value.arrayValue?.compactMap(\.objectValue)
        guard let objects, objects.count == value.arrayValue?.count else {
            throw mismatch(key, expected: "a list of objects", found: value)
        }
        return objects
    }

    private func mismatch(_ key: String, expected: String, found: JSONValue) -> SurveyFormatError {
        SurveyFormatError("\(context): “\(key)” must be \(expected), found \(SurveyMessages.describe(found)).")
    }
}

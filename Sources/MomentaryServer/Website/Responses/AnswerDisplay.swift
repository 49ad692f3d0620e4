import Foundation
import MomentaryCore

/// A stored answer as a researcher reads it on the response page: choices by the label the
/// participant saw (with the stored value when it differs), yes/no in words, a place as coordinates
/// with its name, texts as written, numbers as numbers. Falls back to the stored JSON only when
/// the question is unknown (a version that cannot be read). Participants see labels only
/// (`withKeys: false`): the stored values are for analysis.
enum AnswerDisplay {
    /// `language`: the words "Yes" and "No" in it (a participant's own download); nil, English.
    static func text(json: String?, question: SurveyQuestion?, withKeys: Bool = true, language: String? = nil) -> String {
        guard let json, let value = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)) else { return json ?? "" }
        let options = question?.kind.options ?? []
        switch value {
        case .null: return ""
        case .bool(let flag): return AppCatalogues.text(flag ? "survey.yes" : "survey.no", language: language)
        case .number(let number): return ExportCell.numberText(number)
        case .string(let string): return label(string, options: options, withKey: withKeys)
        case .array(let items): return items.map { item in item.stringValue.map { label($0, options: options, withKey: withKeys) } ?? AnswerRenderer.jsonText(item) }
            .joined(separator: "; ")
        case .object(let fields):
            guard let latitude = fields["latitude"]?.numberValue, let longitude = fields["longitude"]?.numberValue else {
                return AnswerRenderer.jsonText(value)
            }
            var text = ExportCell.numberText(latitude) + ", " + ExportCell.numberText(longitude)
            if let place = fields["place"]?.stringValue, !place.isEmpty { text = place + " (" + text + ")" }
            return text
        }
    }

    /// "At work (work)": the option's label, and its stored value when that differs.
    private static func label(_ key: String, options: [ChoiceOption], withKey: Bool) -> String {
        guard let option = options.first(where: { $0.key == key }) else { return key }
        let text = option.text.text
        return text == key || !withKey ? text : "\(text) (\(key))"
    }

    /// Why there is no answer, in words.
    static func status(_ status: String) -> String {
        switch status {
        case "NO_ANSWER_SELECTED": "skipped"
        case "NOT_PRESENTED": "not shown"
        default: status
        }
    }
}

import Foundation

extension SurveyDocument {
    /// `scoresJSONText(of:)` with the `scores` read beforehand: that reads them from the
    /// document's JSON each time, which ingest would otherwise do for every response (it keeps
    /// them with the parsed version, `ParsedSurveyVersions`). The same text for the same scores.
    public func scoresJSONText(of results: [ValidatedAnswer], scores: [SurveyScore]) throws -> String? {
        guard !scores.isEmpty else { return nil }
        var answers: [String: JSONValue] = [:]
        for result in results { if let value = result.status.value { answers[result.questionID] = value } }
        let values = scores.map { ($0.id, $0.value(given: answers, in: self).map(JSONValue.number) ?? .null) }
        return try JSONValue.object(Dictionary(values) { first, _ in first }).sortedKeysJSONText()
    }
}

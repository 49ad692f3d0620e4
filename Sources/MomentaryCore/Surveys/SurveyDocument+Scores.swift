import Foundation

/// The survey's `scores` list (see `SurveyScore`): read from the document's own JSON so that it
/// round-trips as written, checked by `problems()`, computed when a response is stored.
extension SurveyDocument {
    static let scoreFields: Set<String> = Set(SurveyScore.Operation.allCases.map(\.rawValue)).union(["id", "min_answered", "reverse", "label"])

    /// The scores that can be read; `problems()` reports those that cannot, and why.
    public var scores: [SurveyScore] {
        (extraFields["scores"]?.arrayValue ?? []).compactMap { Self.readScore($0).score }
    }

    /// The score with this id, if any. Reads only that entry: conditions on a score ask for it
    /// while each response is checked.
    public func score(withID id: String) -> SurveyScore? {
        let entry = extraFields["scores"]?.arrayValue?.first { $0.objectValue?["id"]?.stringValue == id }
        return entry.flatMap { Self.readScore($0).score }
    }

    /// The scores of a validated response, as stored: `{"id": number | null}` JSON text with
    /// sorted keys; nil when the survey has no scores.
    public func scoresJSONText(of results: [ValidatedAnswer]) throws -> String? {
        try scoresJSONText(of: results, scores: scores)
    }

    /// `scoresJSONText(of:)` with the scores read beforehand, as ingest keeps them with each
    /// parsed version (`ParsedSurveyVersions`) rather than reading the document's JSON per response.
    public func scoresJSONText(of results: [ValidatedAnswer], scores: [SurveyScore]) throws -> String? {
        guard !scores.isEmpty else { return nil }
        var answers: [String: JSONValue] = [:]
        for result in results { if let value = result.status.value { answers[result.questionID] = value } }
        let values = scores.map { ($0.id, $0.value(given: answers, in: self).map(JSONValue.number) ?? .null) }
        return try JSONValue.object(Dictionary(values) { first, _ in first }).sortedKeysJSONText()
    }

    /// What is wrong with the `scores` list, as whole sentences.
    func scoreProblems() -> [String] {
        guard let value = extraFields["scores"] else { return [] }
        guard let entries = value.arrayValue else {
            return ["The survey’s “scores” must be a list of score objects, found \(SurveyMessages.describe(value))."]
        }
        var problems: [String] = []
        var usedIDs = Set(content.map(\.id))
        for (index, entry) in entries.enumerated() {
            let read = Self.readScore(entry)
            let id = entry.objectValue?["id"]?.stringValue ?? ""
            let name = id.isEmpty ? "Score \(index + 1)" : "Score \(index + 1) (“\(id)”)"
            var issues = read.issues
            if let score = read.score {
                if !usedIDs.insert(score.id).inserted {
                    issues.append("its id “\(score.id)” is already used by a question or an earlier score")
                }
                issues += itemIssues(of: score)
            }
            problems += issues.map { "\(name): \($0)." }
        }
        return problems
    }

    private func itemIssues(of score: SurveyScore) -> [String] {
        var issues: [String] = []
        var seen: Set<String> = []
        for item in score.items {
            if !seen.insert(item).inserted {
                issues.append("item “\(item)” is listed twice")
            } else if let question = question(withID: item) {
                if !question.isScorable {
                    issues.append("item “\(item)” is a \(question.type.rawValue) question, which has no single number to score "
                        + "(scores use sliders, numbers, numeric text, sound levels, yes/no and radio buttons)")
                }
            } else {
                issues.append("item “\(item)” is not a question of this survey")
            }
        }
        for item in score.reversed.sorted() {
            if !score.items.contains(item) {
                issues.append("“reverse” names “\(item)”, which is not one of its items")
            } else if let question = question(withID: item), question.isScorable, question.scoreRange == nil {
                issues.append("item “\(item)” is reversed but has no range to reverse over (give the number question a min and a max)")
            }
        }
        let lowest = score.operation == .count ? 0 : 1
        if score.minAnswered < lowest || score.minAnswered > score.items.count {
            issues.append("min_answered is \(score.minAnswered), but it must be between \(lowest) and its \(score.items.count) items")
        }
        return issues
    }

    /// One entry of `scores`, with what makes it unusable (then `score` is nil) or wrong.
    static func readScore(_ entry: JSONValue) -> (score: SurveyScore?, issues: [String]) {
        guard let object = entry.objectValue else {
            return (nil, ["must be an object such as {\"id\": \"pa_mean\", \"mean\": [\"pa1\", \"pa2\"]}, found \(SurveyMessages.describe(entry))"])
        }
        var issues: [String] = []
        let id = object["id"]?.stringValue ?? ""
        if id.isEmpty {
            issues.append("it has no “id”")
        } else if !QuestionIdentifier.isValid(id) {
            issues.append("its id “\(id)” is not a plain name (\(QuestionIdentifier.rule))")
        }
        let operations = SurveyScore.Operation.allCases.filter { object[$0.rawValue] != nil }
        let names = SurveyScore.Operation.allCases.map { "“\($0.rawValue)”" }.joined(separator: ", ")
        if operations.count != 1 {
            issues.append(operations.isEmpty
                ? "it needs one of \(names) with its list of items"
                : "it has \(operations.count) of \(names); give exactly one")
        }
        let items = operations.count == 1 ? stringList(object[operations[0].rawValue]) : nil
        if operations.count == 1, items?.isEmpty ?? true {
            issues.append("“\(operations[0].rawValue)” must be a non-empty list of question ids")
        }
        let reversed = object["reverse"].map(stringList) ?? []
        if reversed == nil { issues.append("“reverse” must be a list of question ids") }
        var minAnswered: Int?
        if let value = object["min_answered"] {
            if let number = value.numberValue, number == number.rounded(), abs(number) < 1e9 {
                minAnswered = Int(number)
            } else {
                issues.append("min_answered must be a whole number, found \(SurveyMessages.describe(value))")
            }
        }
        let label = object["label"].flatMap(LocalizedText.init(json:))
        if object["label"] != nil, label == nil {
            issues.append("“label” must be text, or an object of language tags and texts such as {\"en\": \"Positive mood\"}")
        }
        for tag in label?.malformedTags ?? [] { issues.append("its label’s “\(tag)” is not a language tag") }
        for key in object.keys.sorted() where !scoreFields.contains(key) {
            issues.append(SurveyFieldNames.issue(with: key, known: scoreFields, owner: "a score") ?? "“\(key)” is not a field of a score")
        }
        guard !id.isEmpty, operations.count == 1, let items, !items.isEmpty else { return (nil, issues) }
        let score = SurveyScore(
            id: id, operation: operations[0], items: items, reversed: Set(reversed ?? []), minAnswered: minAnswered, label: label)
        return (score, issues)
    }

    private static func stringList(_ value: JSONValue?) -> [String]? {
        guard let items = value?.arrayValue else { return nil }
        let strings = items.compactMap(\.stringValue)
        return strings.count == items.count ? strings : nil
    }
}

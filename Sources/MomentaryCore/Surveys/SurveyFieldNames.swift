/// The fields a survey document's reader understands. Fields it does not know are kept as extras
/// (a Beiwe document may carry its own), but one that is a near-miss of a known name, or a known
/// name on a question type that does not use it, is almost always a mistake that would otherwise
/// be ignored in silence, so `problems()` reports it.
enum SurveyFieldNames {
    static let document: Set<String> = ["content", "settings", "survey_type", "timings", "scores", "randomize_groups", "follow_ups"]
    static let question: Set<String> = ["question_id", "question_text", "question_type", "display_if", "required"]
    static let option: Set<String> = ["text", "value"]

    /// The fields of `type` beyond those every question has (as `SurveyQuestion(json:)` reads them).
    static func parameters(of type: QuestionType) -> Set<String> {
        switch type {
        case .infoTextBox, .date, .time, .dateTime, .yesNo, .location, .photo, .soundLevel: []
        case .slider: ["min", "max", "step", "min_label", "max_label", "labels"]
        case .radioButton, .checkbox, .people: ["answers"]
        case .freeResponse: ["text_field_type"]
        case .number: ["min", "max", "step"]
        case .tokens: ["suggested_tokens", "allows_free_entry", "max_count"]
        case .audioRecording: ["max_duration_seconds"]
        }
    }

    /// What is wrong with an unknown field `key` among `known` names, as a phrase; nil when it
    /// is simply a field of someone else's (kept, not used).
    static func issue(with key: String, known: Set<String>, usedElsewhere: Set<String> = [], owner: String) -> String? {
        if usedElsewhere.contains(key) {
            return "“\(key)” is not used by \(owner)"
        }
        guard let meant = likelyMeant(key, among: known) else { return nil }
        return "“\(key)” is not a field; perhaps “\(meant)” was meant"
    }

    /// The known name `key` is most likely a misspelling of: at most two edits away (one for
    /// names of four letters or fewer, where two edits turn most words into others).
    static func likelyMeant(_ key: String, among known: Set<String>) -> String? {
        let lowered = key.lowercased()
        if let sameLetters = known.first(where: { $0 == lowered }) { return sameLetters }
        let candidates = known.map { ($0, editDistance(lowered, $0)) }
            .filter { name, distance in distance <= (name.count <= 4 ? 1 : 2) }
        return candidates.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }

    /// Levenshtein distance where swapping two neighbouring letters counts as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}

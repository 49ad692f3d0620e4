import Foundation

/// A follow-up questionnaire a survey asks for when one of its responses meets a condition,
/// one item of the document's `follow_ups` list:
/// `{"when": {">=": ["stress", 4]}, "survey": "Coping", "after_minutes": 30, "answer_window_minutes": 20}`.
///
/// `when` is written and evaluated exactly as `display_if` (as if it belonged to a question after
/// the last); `survey` names a beep survey of the same study, checked where the study's surveys
/// are known (`SurveySetRules.followUpProblems`). `respect_hours` is the research API's beep
/// flag: by default a follow-up that falls due outside the participant's hours is not sent
/// (recorded as missed); `false` sends it whatever the hours.
public struct FollowUpRule: Sendable, Hashable {
    public static let fields: Set<String> = ["when", "survey", "after_minutes", "answer_window_minutes", "respect_hours"]
    /// From at once to a week later.
    public static let afterMinutesRange = 0...10_080
    /// The research API's range for a beep's own answer window.
    public static let answerWindowRange = 1...1_440

    public var when: DisplayCondition
    /// The follow-up survey's name in the study.
    public var survey: String
    public var afterMinutes: Int
    /// The follow-up beep's own answer window; nil for the study's.
    public var answerWindowMinutes: Int?
    public var respectHours: Bool

    public init(when: DisplayCondition, survey: String, afterMinutes: Int, answerWindowMinutes: Int? = nil, respectHours: Bool = true) {
        self.when = when
        self.survey = survey
        self.afterMinutes = afterMinutes
        self.answerWindowMinutes = answerWindowMinutes
        self.respectHours = respectHours
    }
}

extension SurveyDocument {
    public static let followUpsField = "follow_ups"

    /// The rules of `follow_ups`, each at its position in the list (the position names the rule
    /// to the beep it plans, so a response plans at most one beep per rule); nil where a rule
    /// cannot be used, which `problems()` explains.
    public var followUpRules: [FollowUpRule?] {
        readFollowUps().rules
    }

    /// The usable rules whose `when` these answers (question id → answer; skipped questions
    /// absent) meet, with their positions.
    public func followUps(meeting answers: [String: JSONValue], variables: [String: JSONValue] = [:]) -> [(index: Int, rule: FollowUpRule)] {
        followUpRules.enumerated().compactMap { index, rule in
            guard let rule, self.answers(answers, meet: rule.when, variables: variables) else { return nil }
            return (index, rule)
        }
    }

    /// What is wrong with `follow_ups`, each a full sentence naming the rule.
    func followUpProblems() -> [SurveyProblem] {
        readFollowUps().problems.map { SurveyProblem(questionNumber: nil, questionID: nil, message: $0) }
    }

    private func readFollowUps() -> (rules: [FollowUpRule?], problems: [String]) {
        guard let value = extraFields[Self.followUpsField], value != .null else { return ([], []) }
        guard let items = value.arrayValue else {
            return ([], ["“follow_ups” must be a list of rules such as {\"when\": {\">=\": [\"stress\", 4]}, \"survey\": \"Coping\", "
                + "\"after_minutes\": 30}, found \(SurveyMessages.describe(value))."])
        }
        var rules: [FollowUpRule?] = []
        var problems: [String] = []
        for (index, item) in items.enumerated() {
            let (rule, issues) = readRule(item)
            rules.append(issues.isEmpty ? rule : nil)
            problems += issues.map { "Follow-up \(index + 1) in “follow_ups”: \($0)." }
        }
        return (rules, problems)
    }

    /// One rule, or the phrases that say why it cannot be used.
    private func readRule(_ item: JSONValue) -> (FollowUpRule?, [String]) {
        guard let object = item.objectValue else {
            return (nil, ["must be an object with “when”, “survey” and “after_minutes”, found \(SurveyMessages.describe(item))"])
        }
        var issues: [String] = []
        for key in object.keys.sorted() where !FollowUpRule.fields.contains(key) {
            // Every field of a rule is read, so any other is a mistake, never someone else's data.
            issues.append(SurveyFieldNames.issue(with: key, known: FollowUpRule.fields, owner: "a follow-up")
                ?? "“\(key)” is not a field of a follow-up (its fields: \(FollowUpRule.fields.sorted().joined(separator: ", ")))")
        }
        var condition: DisplayCondition?
        if let when = object["when"], when != .null {
            let read = DisplayCondition(json: when)
            issues += answerConditionIssues(read).map { "“when” \($0)" }
            condition = read
        } else {
            issues.append("“when” is missing: the condition on this survey's answers, written as display_if is, such as {\">=\": [\"stress\", 4]}")
        }
        let survey = object["survey"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if survey.isEmpty {
            issues.append("“survey” must name the follow-up survey, one of the study's beep surveys")
        }
        let afterMinutes = wholeNumber(object["after_minutes"], "after_minutes", in: FollowUpRule.afterMinutesRange, required: true, issues: &issues)
        let window = wholeNumber(object["answer_window_minutes"], "answer_window_minutes", in: FollowUpRule.answerWindowRange, required: false, issues: &issues)
        var respectHours = true
        if let value = object["respect_hours"], value != .null {
            if let flag = value.boolValue { respectHours = flag } else {
                issues.append("“respect_hours” must be true or false, found \(SurveyMessages.describe(value))")
            }
        }
        guard issues.isEmpty, let condition, let afterMinutes else { return (nil, issues) }
        return (FollowUpRule(when: condition, survey: survey, afterMinutes: afterMinutes, answerWindowMinutes: window, respectHours: respectHours), [])
    }

    private func wholeNumber(_ value: JSONValue?, _ key: String, in range: ClosedRange<Int>, required: Bool, issues: inout [String]) -> Int? {
        let wanted = "a whole number of minutes from \(range.lowerBound) to \(SurveyMessages.number(Double(range.upperBound)))"
        guard let value, value != .null else {
            if required { issues.append("“\(key)” is missing: \(wanted)") }
            return nil
        }
        guard let number = value.numberValue, number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            issues.append("“\(key)” must be \(wanted), found \(SurveyMessages.describe(value))")
            return nil
        }
        return Int(number)
    }
}

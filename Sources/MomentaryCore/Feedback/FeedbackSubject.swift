import Foundation

/// What a study's feedback charts, public statistics and calendar titles summarise: a slider of
/// the survey participants answer, or one of its scores (a PANAS mean, say) that has a range to
/// draw against. The study names it (`feedback_question`); by default it is the first slider.
public struct FeedbackSubject: Sendable {
    public enum Source: Sendable {
        case slider(SurveyQuestion)
        case score(SurveyScore)
    }

    public let source: Source
    /// As charts describe it, in the survey document's language(s) as given.
    public let described: FeedbackQuestion

    public var id: String { described.id }

    /// The score, when the subject is one.
    public var score: SurveyScore? {
        if case .score(let score) = source { score } else { nil }
    }

    /// The subject named `id` in `survey` (empty or nil: the first slider); nil when there is none
    /// or it cannot be charted.
    public init?(in survey: SurveyDocument, named id: String?) {
        let name = id?.trimmingCharacters(in: .whitespaces) ?? ""
        if let slider = survey.content.first(where: { $0.isSlider && (name.isEmpty || $0.id == name) }),
           let described = FeedbackQuestion(slider) {
            self.source = .slider(slider)
            self.described = described
        } else if !name.isEmpty, let score = survey.score(withID: name), let range = score.range(in: survey) {
            self.source = .score(score)
            self.described = FeedbackQuestion(id: score.id, text: score.label?.text ?? score.id, min: range.low, max: range.high)
        } else {
            return nil
        }
    }

    /// The subject's value in one response's answers (question id → canonical answer); nil when
    /// the slider was not answered or too few of the score's items were.
    public func value(of answers: [String: JSONValue], in survey: SurveyDocument) -> Double? {
        switch source {
        case .slider(let question): answers[question.id]?.numberValue
        case .score(let score): score.value(given: answers, in: survey)
        }
    }

    /// What a study may name in `survey`: its sliders, and its scores that have a range to chart
    /// against (a score also needs a label in every language, which `problem` checks).
    public static func choices(in survey: SurveyDocument) -> (sliders: [SurveyQuestion], scores: [SurveyScore]) {
        (survey.content.filter(\.isSlider), survey.scores.filter { $0.range(in: survey) != nil })
    }

    /// Why a study cannot name `id` as its feedback subject, or nil when it can: empty means the
    /// survey's first slider; anything else must be a slider of the survey participants answer,
    /// or a score of it whose items all have a range and whose label (what participants read
    /// above the charts) is given in each of the study's `languages`. The settings page and
    /// `studies import` both ask this.
    public static func problem(named id: String?, survey: SurveyDocument?, languages: [String]) -> String? {
        guard let id = id?.trimmingCharacters(in: .whitespaces), !id.isEmpty else { return nil }
        let survey = survey ?? SurveyDocument(content: [])
        if survey.content.contains(where: { $0.isSlider && $0.id == id }) { return nil }
        let name = "Feedback question: “\(id.prefix(40))”"
        if let score = survey.score(withID: id) {
            if score.range(in: survey) == nil {
                return "\(name) is a score with an item that has no range to chart it against "
                    + "(sliders, yes/no, radio buttons and number questions with a min and a max have one)."
            }
            guard let label = score.label, !label.text.trimmingCharacters(in: .whitespaces).isEmpty else {
                return "\(name) is a score without a “label”: give it one, which participants read above its charts."
            }
            let problems = StudyLanguages.problems(of: label, label: "its label, which participants read above its charts,", languages: languages)
            if !problems.isEmpty { return "\(name) is a score: " + problems.joined(separator: "; ") + "." }
            return nil
        }
        let (sliders, scores) = choices(in: survey)
        let choices = sliders.map(\.id) + scores.map(\.id)
        let listed = choices.isEmpty ? "the survey has no slider or score" : "choose one of " + choices.joined(separator: ", ")
        return "\(name) is not a slider or a score of the study’s survey (\(listed))."
    }
}

extension SurveyQuestion {
    public var isSlider: Bool {
        if case .slider = kind { true } else { false }
    }
}

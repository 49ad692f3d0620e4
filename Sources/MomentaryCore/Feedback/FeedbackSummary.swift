import Foundation

/// Answer of `GET /api/v1/feedback` ("My happiness"): the mean of the study's feedback subject
/// (a slider or a score, `FeedbackSubject`) in the participant's own answers, grouped by each choice question of the survey
/// (what they were doing, where, with whom, …) and by hour of day, ready to draw as bar charts.
/// Categories with fewer than `minimumAnswers` answers are left out, and each group says how many.
public struct FeedbackSummary: Codable, Sendable, Hashable {
    /// The slider or score being summarised; nil when the study's survey has none (then there are no groups).
    public var question: FeedbackQuestion?
    /// Responses with a value of it.
    public var answers: Int
    /// Their mean; nil when there are none.
    public var mean: Double?
    /// The fewest answers a category needs to be shown.
    public var minimumAnswers: Int
    public var groups: [FeedbackGroup]
    /// One sentence for people: what is shown and what was left out.
    public var note: String

    public init(question: FeedbackQuestion?, answers: Int, mean: Double?, minimumAnswers: Int, groups: [FeedbackGroup], note: String) {
        self.question = question
        self.answers = answers
        self.mean = mean
        self.minimumAnswers = minimumAnswers
        self.groups = groups
        self.note = note
    }

    enum CodingKeys: String, CodingKey {
        case question, answers, mean, minimumAnswers = "minimum_answers", groups, note
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(question, forKey: .question)
        try container.encode(answers, forKey: .answers)
        try container.encode(mean, forKey: .mean)
        try container.encode(minimumAnswers, forKey: .minimumAnswers)
        try container.encode(groups, forKey: .groups)
        try container.encode(note, forKey: .note)
    }
}

public struct FeedbackQuestion: Codable, Sendable, Hashable {
    public var id: String
    public var text: String
    public var min: Double
    public var max: Double
    public var minLabel: String?
    public var maxLabel: String?

    public init(id: String, text: String, min: Double, max: Double, minLabel: String? = nil, maxLabel: String? = nil) {
        self.id = id
        self.text = text
        self.min = min
        self.max = max
        self.minLabel = minLabel
        self.maxLabel = maxLabel
    }

    /// The slider as charts describe it; nil for a question that is not a slider.
    public init?(_ question: SurveyQuestion) {
        guard case .slider(let scale) = question.kind else { return nil }
        self.init(
            id: question.id, text: question.text.text, min: scale.min, max: scale.max,
            minLabel: scale.minLabel?.text, maxLabel: scale.maxLabel?.text)
    }

    enum CodingKeys: String, CodingKey {
        case id, text, min, max, minLabel = "min_label", maxLabel = "max_label"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(text, forKey: .text)
        try container.encode(min, forKey: .min)
        try container.encode(max, forKey: .max)
        try container.encode(minLabel, forKey: .minLabel)
        try container.encode(maxLabel, forKey: .maxLabel)
    }
}

/// One chart: the feedback mean per category of one question, or per hour of day.
public struct FeedbackGroup: Codable, Sendable, Hashable {
    /// The question id, or `hour_of_day`.
    public var id: String
    public var title: String
    /// Shown categories, in the survey's option order (hours in clock order).
    public var categories: [FeedbackCategory]
    /// Categories answered at least once but fewer than `minimum_answers` times, so not shown.
    public var omittedCategories: Int

    public init(id: String, title: String, categories: [FeedbackCategory], omittedCategories: Int) {
        self.id = id
        self.title = title
        self.categories = categories
        self.omittedCategories = omittedCategories
    }

    public static let hourOfDayID = "hour_of_day"

    enum CodingKeys: String, CodingKey {
        case id, title, categories, omittedCategories = "omitted_categories"
    }
}

public struct FeedbackCategory: Codable, Sendable, Hashable {
    /// What answers store (an option key, `yes`/`no`, or the hour `0`…`23`).
    public var key: String
    /// What people read (the option text, "Yes", "09:00–10:00").
    public var label: String
    public var mean: Double
    public var answers: Int

    public init(key: String, label: String, mean: Double, answers: Int) {
        self.key = key
        self.label = label
        self.mean = mean
        self.answers = answers
    }
}

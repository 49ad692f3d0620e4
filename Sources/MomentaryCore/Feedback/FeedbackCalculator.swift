import Foundation

/// Computes a participant's `FeedbackSummary` from their responses. Pure, so the API, the feedback
/// page and the personal data download all draw the same figures.
public enum FeedbackCalculator {
    /// Mappiness showed no average built on fewer than three answers.
    public static let minimumAnswers = 3

    /// One response as the calculator needs it: the local hour it was started and its answers.
    public struct Sample: Sendable {
        public var localHour: Int
        public var answers: [String: JSONValue]

        public init(localHour: Int, answers: [String: JSONValue]) {
            self.localHour = localHour
            self.answers = answers
        }
    }

    /// `survey`'s texts are in the participant's language already (`SurveyDocument.localized`);
    /// `words` gives the summary's own words in it.
    public static func summary(
        survey: SurveyDocument, feedbackQuestionID: String? = nil, samples: [Sample], minimumAnswers: Int = minimumAnswers,
        words: FeedbackWords = .english
    ) -> FeedbackSummary {
        guard let subject = FeedbackSubject(in: survey, named: feedbackQuestionID) else {
            return FeedbackSummary(
                question: nil, answers: 0, mean: nil, minimumAnswers: minimumAnswers, groups: [],
                note: words.text("feedback.no_slider"))
        }
        let rated = samples.compactMap { sample in subject.value(of: sample.answers, in: survey).map { (sample, $0) } }
        var groups: [FeedbackGroup] = []
        for grouping in survey.content where grouping.id != subject.id {
            guard let categories = categories(of: grouping, words: words) else { continue }
            var tallies: [String: Tally] = [:]
            for (sample, value) in rated {
                for key in keys(sample.answers[grouping.id], of: grouping) { tallies[key, default: Tally()].add(value) }
            }
            groups.append(group(id: grouping.id, title: grouping.text.text, categories: categories, tallies: tallies, minimumAnswers: minimumAnswers))
        }
        var hours: [String: Tally] = [:]
        for (sample, value) in rated where (0..<24).contains(sample.localHour) { hours[String(sample.localHour), default: Tally()].add(value) }
        let hourCategories = (0..<24).map { hour in (String(hour), String(format: "%02d:00–%02d:00", hour, (hour + 1) % 24)) }
        groups.append(group(id: FeedbackGroup.hourOfDayID, title: words.text("feedback.by_time_of_day"), categories: hourCategories, tallies: hours, minimumAnswers: minimumAnswers))

        let omitted = groups.reduce(0) { $0 + $1.omittedCategories }
        var note = rated.isEmpty
            ? words.text("feedback.no_answers_yet", ["question": subject.described.text])
            : words.text("feedback.averages", ["question": subject.described.text], count: rated.count)
        if omitted > 0 {
            note += " " + words.text("feedback.omitted", ["minimum": String(minimumAnswers)], count: omitted)
        }
        return FeedbackSummary(
            question: subject.described,
            answers: rated.count, mean: rated.isEmpty ? nil : rated.map(\.1).reduce(0, +) / Double(rated.count),
            minimumAnswers: minimumAnswers, groups: groups, note: note)
    }

    /// The categories (key, label) a question sorts answers into; nil for questions that do not.
    private static func categories(of question: SurveyQuestion, words: FeedbackWords) -> [(String, String)]? {
        switch question.kind {
        case .radioButton(let options), .checkbox(let options), .people(let options):
            options.map { ($0.key, $0.text.text) }
        case .yesNo:
            [("yes", words.text("survey.yes")), ("no", words.text("survey.no"))]
        default:
            nil
        }
    }

    /// The category keys one answer falls into (several for a checkbox).
    private static func keys(_ answer: JSONValue?, of question: SurveyQuestion) -> [String] {
        switch answer {
        case .string(let key)?: [key]
        case .array(let items)?: Array(Set(items.compactMap(\.stringValue)))
        case .bool(let yes)?: [yes ? "yes" : "no"]
        default: []
        }
    }

    private static func group(
        id: String, title: String, categories: [(String, String)], tallies: [String: Tally], minimumAnswers: Int
    ) -> FeedbackGroup {
        var shown: [FeedbackCategory] = []
        var omitted = 0
        for (key, label) in categories {
            guard let tally = tallies[key] else { continue }
            if tally.count < minimumAnswers {
                omitted += 1
            } else {
                shown.append(FeedbackCategory(key: key, label: label, mean: tally.sum / Double(tally.count), answers: tally.count))
            }
        }
        return FeedbackGroup(id: id, title: title, categories: shown, omittedCategories: omitted)
    }

    private struct Tally {
        var sum = 0.0
        var count = 0
        mutating func add(_ value: Double) {
            sum += value
            count += 1
        }
    }
}

import Foundation
import MomentaryCore

/// "My happiness" as HTML: one horizontal bar chart per group, drawn as SVG on the server so the
/// page needs no script, and labelled so a screen reader reads every figure.
enum FeedbackCharts {
    static let width = 320.0
    static let rowHeight = 44.0
    static let barWidth = 230.0
    /// The app's accent, dark enough for the bar to stand out on white and on the dark theme.
    static let barColor = "#0d8a83"

    /// The charts section: the note, then a figure per group that has something to show; its words
    /// in the participant's `language` (`heading` is a catalogue key).
    static func section(
        _ summary: FeedbackSummary, language: String?, headingID: String = "feedback-title", heading: String = "title.my_happiness"
    ) -> String {
        let title = AppCatalogues.text(heading, language: language)
        var html = #"<section class="feedback" aria-labelledby="\#(headingID)"><h2 id="\#(headingID)">\#(HTMLText.escape(title))</h2>"#
        html += #"<p class="feedback-note">\#(HTMLText.escape(summary.note))</p>"#
        if let question = summary.question, let mean = summary.mean {
            let average = AppCatalogues.html(
                "feedback.your_average", language: language, ["mean": "<strong>\(number(mean))</strong>", "scale": scaleText(question, language: language)])
            html += #"<p class="feedback-overall">\#(average)</p>"#
        }
        if let question = summary.question {
            for group in summary.groups where !group.categories.isEmpty {
                html += figure(group, question: question, language: language)
            }
        }
        return html + "</section>"
    }

    static func figure(_ group: FeedbackGroup, question: FeedbackQuestion, language: String?) -> String {
        let height = rowHeight * Double(group.categories.count) + 4
        let span = max(question.max - question.min, .leastNonzeroMagnitude)
        func answers(_ count: Int) -> String { AppCatalogues.text("feedback.answers", language: language, count: count) }
        let spoken = group.categories.map { "\($0.label): \(number($0.mean)) (\(answers($0.answers)))" }.joined(separator: "; ")
        var svg = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(Int(width)) \#(Int(height))" role="img" aria-label="\#(HTMLText.escape(group.title + ": " + spoken))" class="feedback-bars">"#
        for (index, category) in group.categories.enumerated() {
            let top = Double(index) * rowHeight
            let length = max(2, barWidth * min(1, max(0, (category.mean - question.min) / span)))
            svg += #"<text x="0" y="\#(format(top + 14))" font-size="13" fill="currentColor">\#(HTMLText.escape(category.label))</text>"#
            svg += #"<rect x="0" y="\#(format(top + 20))" width="\#(format(length))" height="16" rx="3" fill="\#(barColor)"/>"#
            svg += #"<text x="\#(format(length + 6))" y="\#(format(top + 33))" font-size="12" fill="currentColor">\#(number(category.mean)) · \#(answers(category.answers))</text>"#
        }
        svg += "</svg>"
        var html = #"<figure class="feedback-chart"><figcaption>\#(HTMLText.escape(group.title))</figcaption>\#(svg)"#
        if group.omittedCategories > 0 {
            let more = AppCatalogues.text(
                "feedback.more_not_shown", language: language, ["minimum": String(FeedbackCalculator.minimumAnswers)], count: group.omittedCategories)
            html += #"<p class="hint">\#(HTMLText.escape(more))</p>"#
        }
        return html + "</figure>"
    }

    /// Escaped HTML: "0 (Not at all) to 100 (Extremely)".
    private static func scaleText(_ question: FeedbackQuestion, language: String?) -> String {
        let low = number(question.min) + (question.minLabel.map { " (\(HTMLText.escape($0)))" } ?? "")
        let high = number(question.max) + (question.maxLabel.map { " (\(HTMLText.escape($0)))" } ?? "")
        return AppCatalogues.html("feedback.scale", language: language, ["low": low, "high": high])
    }

    /// Means to one decimal place, whole numbers without one.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}

import Foundation
import MomentaryCore

/// `/studies/{slug}/public`: the public statistics drawn as SVG on the server (no script), small
/// enough to embed in the study's own website.
enum PublicStatisticsPage {
    static func html(_ statistics: PublicStatistics) -> String {
        var body = #"<p class="lead">\#(statistics.participants) \#(statistics.participants == 1 ? "person has" : "people have") taken part and given \#(statistics.responses) \#(statistics.responses == 1 ? "response" : "responses").</p>"#
        if let question = statistics.question {
            body += hedonimeter(statistics, question: question)
            body += hours(statistics, question: question)
            body += photos(statistics)
        }
        body += #"<p class="hint">Updated \#(HTMLText.escape(timestamp(statistics.refreshedAt))) UTC. Anonymous: no one can be identified from these figures; places are rounded to about a kilometre. The same figures as JSON: <a href="\#(HTMLText.escape(APIRoute.publicStatistics.path(statistics.study)))">statistics</a>.</p>"#
        return ParticipantPage.document(title: "\(statistics.name): how people feel", body: body)
    }

    private static func hedonimeter(_ statistics: PublicStatistics, question: FeedbackQuestion) -> String {
        let overall = statistics.hedonimeter.overall
        guard let mean = overall.mean else {
            return #"<p>No answers to “\#(HTMLText.escape(question.text))” yet.</p>"#
        }
        var html = #"<section aria-labelledby="hedonimeter-title"><h2 id="hedonimeter-title">\#(HTMLText.escape(question.text))</h2>"#
        html += #"<p>Average of all \#(overall.responses) answers: <strong>\#(FeedbackCharts.number(mean))</strong>"#
        if let latest = overall.latest25Mean { html += #"; of the latest \#(min(overall.responses, PublicStatisticsRules.latestCount)): <strong>\#(FeedbackCharts.number(latest))</strong>"# }
        html += #" (scale \#(FeedbackCharts.number(question.min)) to \#(FeedbackCharts.number(question.max)))."#
        html += "</p>"
        let regions = statistics.hedonimeter.regions.compactMap { region -> FeedbackCategory? in
            guard let mean = region.reading.mean else { return nil }
            return FeedbackCategory(key: region.region, label: countryName(region.region), mean: mean, answers: region.reading.responses)
        }
        if !regions.isEmpty {
            html += FeedbackCharts.figure(FeedbackGroup(id: "region", title: "By country", categories: regions, omittedCategories: 0), question: question)
        }
        return html + "</section>"
    }

    /// The past week hour by hour: a bar per hour with enough answers, gaps where there were too few.
    private static func hours(_ statistics: PublicStatistics, question: FeedbackQuestion) -> String {
        var html = #"<section aria-labelledby="hours-title"><h2 id="hours-title">The past week, hour by hour</h2>"#
        guard let last = statistics.hours.last else {
            return html + #"<p class="hint">Not enough answers yet: an hour is shown once it has \#(statistics.minimumHourResponses) or more.</p></section>"#
        }
        let width = 336.0, height = 120.0
        let end = PublicStatisticsRules.hour(of: statistics.refreshedAt)
        let span = max(question.max - question.min, .leastNonzeroMagnitude)
        let slot = width / Double(PublicStatisticsRules.hoursShown)
        let label = "Hourly average over the past week, \(statistics.hours.count) hours with enough answers; the latest, \(timestamp(last.start)), averaged \(FeedbackCharts.number(last.mean))."
        var svg = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(Int(width)) \#(Int(height + 16))" role="img" aria-label="\#(HTMLText.escape(label))" class="feedback-bars">"#
        for hour in statistics.hours {
            let index = Double(PublicStatisticsRules.hoursShown - 1) - end.timeIntervalSince(hour.start) / 3600
            let barHeight = max(1, height * min(1, max(0, (hour.mean - question.min) / span)))
            svg += #"<rect x="\#(format(index * slot))" y="\#(format(height - barHeight))" width="\#(format(max(slot - 0.3, 0.5)))" height="\#(format(barHeight))" fill="\#(FeedbackCharts.barColor)"/>"#
        }
        svg += #"<text x="0" y="\#(Int(height + 13))" font-size="10" fill="currentColor">7 days ago</text><text x="\#(Int(width))" y="\#(Int(height + 13))" font-size="10" text-anchor="end" fill="currentColor">now</text></svg>"#
        html += #"<figure class="feedback-chart"><figcaption>Average by hour (hours with fewer than \#(statistics.minimumHourResponses) answers are left out)</figcaption>\#(svg)</figure>"#
        return html + "</section>"
    }

    private static func photos(_ statistics: PublicStatistics) -> String {
        guard !statistics.photos.isEmpty else { return "" }
        let figures = statistics.photos.prefix(24).map { photo -> String in
            let caption = "Rated \(FeedbackCharts.number(photo.rating)), \(timestamp(photo.hour)), near \(photo.latitude), \(photo.longitude)"
            return #"<figure><img src="\#(HTMLText.escape(photo.url))" alt="\#(HTMLText.escape("A photo shared with a happy moment: " + caption))" loading="lazy"><figcaption>\#(HTMLText.escape(caption))</figcaption></figure>"#
        }.joined()
        return #"<section aria-labelledby="photos-title"><h2 id="photos-title">Happy moments</h2><div class="my-photos">\#(figures)</div></section>"#
    }

    static func countryName(_ code: String) -> String {
        guard code != RegionLookup.unknown else { return "Unknown" }
        return Locale(identifier: "en_GB").localizedString(forRegionCode: code) ?? code
    }

    private static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMM yyyy, HH:mm"
        return formatter.string(from: date)
    }

    private static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}

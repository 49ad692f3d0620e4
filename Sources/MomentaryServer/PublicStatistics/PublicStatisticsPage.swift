import Foundation
import MomentaryCore

/// `/studies/{slug}/public`: the public statistics drawn as SVG on the server (no script), small
/// enough to embed in the study's own website.
enum PublicStatisticsPage {
    /// Its words in `language` (the app's catalogues); the study's texts as the statistics hold them.
    static func html(_ statistics: PublicStatistics, language: String?) -> String {
        func words(_ key: String, _ values: [String: String] = [:], count: Int? = nil) -> String {
            AppCatalogues.html(key, language: language, values.mapValues(HTMLText.escape), count: count)
        }
        let lead = words("statistics.lead", ["people": String(statistics.participants), "responses": String(statistics.responses)])
        var body = #"<p class="lead">\#(lead)</p>"#
        if let question = statistics.question {
            body += hedonimeter(statistics, question: question, language: language)
            body += hours(statistics, question: question, language: language)
            body += photos(statistics, language: language)
        }
        let json = #"<a href="\#(HTMLText.escape(APIRoute.publicStatistics.path(statistics.study)))">\#(words("statistics.json_link"))</a>"#
        body += #"<p class="hint">\#(AppCatalogues.html("statistics.updated", language: language, ["time": HTMLText.escape(timestamp(statistics.refreshedAt, language: language)), "link": json]))</p>"#
        return ParticipantPage.document(
            title: AppCatalogues.text("statistics.title", language: language, ["study": statistics.name]), language: language, body: body)
    }

    private static func hedonimeter(_ statistics: PublicStatistics, question: FeedbackQuestion, language: String?) -> String {
        let overall = statistics.hedonimeter.overall
        guard let mean = overall.mean else {
            return "<p>" + AppCatalogues.html("statistics.no_answers", language: language, ["question": HTMLText.escape(question.text)]) + "</p>"
        }
        var html = #"<section aria-labelledby="hedonimeter-title"><h2 id="hedonimeter-title">\#(HTMLText.escape(question.text))</h2>"#
        let strong = { (value: Double) in "<strong>\(FeedbackCharts.number(value))</strong>" }
        var average = AppCatalogues.html("statistics.average", language: language, ["mean": strong(mean)], count: overall.responses)
        if let latest = overall.latest25Mean {
            average += AppCatalogues.html(
                "statistics.latest", language: language, ["mean": strong(latest)], count: min(overall.responses, PublicStatisticsRules.latestCount))
        }
        average += AppCatalogues.html("statistics.scale", language: language, [
            "min": FeedbackCharts.number(question.min), "max": FeedbackCharts.number(question.max),
        ])
        html += "<p>\(average)</p>"
        let regions = statistics.hedonimeter.regions.compactMap { region -> FeedbackCategory? in
            guard let mean = region.reading.mean else { return nil }
            return FeedbackCategory(key: region.region, label: countryName(region.region, language: language), mean: mean, answers: region.reading.responses)
        }
        if !regions.isEmpty {
            let title = AppCatalogues.text("statistics.by_country", language: language)
            html += FeedbackCharts.figure(
                FeedbackGroup(id: "region", title: title, categories: regions, omittedCategories: 0), question: question, language: language)
        }
        return html + "</section>"
    }

    /// The past week hour by hour: a bar per hour with enough answers, gaps where there were too few.
    private static func hours(_ statistics: PublicStatistics, question: FeedbackQuestion, language: String?) -> String {
        func words(_ key: String, _ values: [String: String] = [:], count: Int? = nil) -> String {
            AppCatalogues.text(key, language: language, values, count: count)
        }
        var html = #"<section aria-labelledby="hours-title"><h2 id="hours-title">\#(HTMLText.escape(words("statistics.week")))</h2>"#
        guard let last = statistics.hours.last else {
            return html + #"<p class="hint">\#(HTMLText.escape(words("statistics.week_too_few", count: statistics.minimumHourResponses)))</p></section>"#
        }
        let width = 336.0, height = 120.0
        let end = PublicStatisticsRules.hour(of: statistics.refreshedAt)
        let span = max(question.max - question.min, .leastNonzeroMagnitude)
        let slot = width / Double(PublicStatisticsRules.hoursShown)
        let label = words("statistics.week_label", ["time": timestamp(last.start, language: language), "mean": FeedbackCharts.number(last.mean)], count: statistics.hours.count)
        var svg = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(Int(width)) \#(Int(height + 16))" role="img" aria-label="\#(HTMLText.escape(label))" class="feedback-bars">"#
        for hour in statistics.hours {
            let index = Double(PublicStatisticsRules.hoursShown - 1) - end.timeIntervalSince(hour.start) / 3600
            let barHeight = max(1, height * min(1, max(0, (hour.mean - question.min) / span)))
            svg += #"<rect x="\#(format(index * slot))" y="\#(format(height - barHeight))" width="\#(format(max(slot - 0.3, 0.5)))" height="\#(format(barHeight))" fill="\#(FeedbackCharts.barColor)"/>"#
        }
        svg += #"<text x="0" y="\#(Int(height + 13))" font-size="10" fill="currentColor">\#(HTMLText.escape(words("statistics.week_start")))</text><text x="\#(Int(width))" y="\#(Int(height + 13))" font-size="10" text-anchor="end" fill="currentColor">\#(HTMLText.escape(words("statistics.week_end")))</text></svg>"#
        let caption = words("statistics.week_caption", count: statistics.minimumHourResponses)
        html += #"<figure class="feedback-chart"><figcaption>\#(HTMLText.escape(caption))</figcaption>\#(svg)</figure>"#
        return html + "</section>"
    }

    private static func photos(_ statistics: PublicStatistics, language: String?) -> String {
        guard !statistics.photos.isEmpty else { return "" }
        let figures = statistics.photos.prefix(24).map { photo -> String in
            let caption = AppCatalogues.text("statistics.photo_caption", language: language, [
                "rating": FeedbackCharts.number(photo.rating), "time": timestamp(photo.hour, language: language),
                "latitude": "\(photo.latitude)", "longitude": "\(photo.longitude)",
            ])
            let alt = AppCatalogues.text("statistics.photo_alt", language: language, ["caption": caption])
            return #"<figure><img src="\#(HTMLText.escape(photo.url))" alt="\#(HTMLText.escape(alt))" loading="lazy"><figcaption>\#(HTMLText.escape(caption))</figcaption></figure>"#
        }.joined()
        let heading = HTMLText.escape(AppCatalogues.text("statistics.photos", language: language))
        return #"<section aria-labelledby="photos-title"><h2 id="photos-title">\#(heading)</h2><div class="my-photos">\#(figures)</div></section>"#
    }

    /// The country's name in the page's language (Foundation's names).
    static func countryName(_ code: String, language: String? = nil) -> String {
        guard code != RegionLookup.unknown else { return AppCatalogues.text("statistics.unknown_country", language: language) }
        return Locale(identifier: AppCatalogues.catalogue(for: language)).localizedString(forRegionCode: code) ?? code
    }

    /// "28 Nov 2026, 14:00" in UTC, with the month's name in the page's language.
    private static func timestamp(_ date: Date, language: String?) -> String {
        let formatter = DateFormatter()
        let catalogue = AppCatalogues.catalogue(for: language)
        formatter.locale = Locale(identifier: catalogue == "en" ? "en_GB_POSIX" : catalogue)
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMM yyyy, HH:mm"
        return formatter.string(from: date)
    }

    private static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}

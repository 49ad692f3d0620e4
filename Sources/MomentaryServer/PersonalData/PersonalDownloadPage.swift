import Foundation
import MomentaryCore
import SQLKit

/// The HTML of a personal download: the links to each file, the filter, the feedback charts, the
/// responses newest first (local times, answers in words) and the participant's photos. Written as
/// the responses are read, so a long history starts showing at once.
struct PersonalDownloadPage {
    let download: PersonalDownload

    private var base: String { "/my/\(download.code)" }

    /// The participant's language: every word of the page is in it (the app's catalogues).
    private var language: String? { download.participant.language }

    private func words(_ key: String, _ values: [String: String] = [:]) -> String {
        HTMLText.escape(AppCatalogues.text(key, language: language, values))
    }

    func write(to output: ExportOutput) async throws {
        let study = download.study
        try await output.write(ParticipantPage.opening(title: AppCatalogues.text("title.my_data", language: language), language: language))
        let name = study.text(of: .name, in: study.textLanguage(of: language)) ?? study.name
        let intro = AppCatalogues.html("my_data_page.intro", language: language, [
            "study": "<strong>\(HTMLText.escape(name))</strong>", "zone": HTMLText.escape(download.zone.identifier),
        ])
        try await output.write("<p>\(intro)</p>")
        try await output.write(links() + filterForm())
        if study.feedbackEnabled {
            let summary = try await FeedbackService.summary(for: download.participant, study: study, on: download.db)
            try await output.write(FeedbackCharts.section(summary, language: language))
        }
        try await output.write(#"<section aria-labelledby="answers-title"><h2 id="answers-title">\#(words("my_data_page.answers"))</h2>"#)
        var count = 0
        try await download.forEachPage { page in
            if count == 0 {
                try await output.write(#"<table class="my-answers"><thead><tr><th scope="col">\#(words("my_data_page.column.number"))</th><th scope="col">\#(words("my_data_page.column.when"))</th><th scope="col">\#(words("my_data_page.column.answers"))</th></tr></thead><tbody>"#)
            }
            count += page.count
            try await output.write(page.map(row).joined())
        }
        try await output.write(count == 0
            ? #"<p class="hint">\#(words(isFiltered ? "my_data_page.none_filtered" : "my_data_page.none"))</p></section>"#
            : "</tbody></table></section>")
        try await output.write(try await gallery())
        try await output.write(ParticipantPage.closing)
    }

    private var isFiltered: Bool {
        download.filter.from != nil || download.filter.to != nil || (download.filter.afterSequence ?? 0) > 0
    }

    private func links() -> String {
        let query = filterQuery()
        let formats: [(PersonalDownload.Format, String)] = [
            (.csv, "my_data.format.csv"), (.json, "my_data.format.json"), (.kmz, "my_data.format.kmz"), (.ics, "my_data.format.ics"),
        ]
        let list = formats.map { format, label in
            #"<li><a href="\#(base)/\#(format.fileName)\#(query)" download>\#(words(label))</a></li>"#
        }.joined()
        return #"<nav aria-label="\#(words("my_data_page.download_label"))"><h2>\#(words("my_data.download"))</h2><ul class="my-downloads">\#(list)</ul></nav>"#
    }

    private func filterQuery() -> String {
        var parts: [String] = []
        if let from = download.filter.from { parts.append("from=\(from)") }
        if let to = download.filter.to { parts.append("to=\(to)") }
        if let after = download.filter.afterSequence, after > 0 { parts.append("after_sequence=\(after)") }
        return parts.isEmpty ? "" : "?" + parts.joined(separator: "&amp;")
    }

    private func filterForm() -> String {
        let filter = download.filter
        return """
            <form method="get" action="\(base)" class="my-filter" aria-labelledby="filter-title">
            <h2 id="filter-title">\(words("my_data_page.filter.title"))</h2>
            <label for="from">\(words("my_data_page.filter.from"))</label><input type="date" id="from" name="from" value="\(filter.from?.description ?? "")">
            <label for="to">\(words("my_data_page.filter.to"))</label><input type="date" id="to" name="to" value="\(filter.to?.description ?? "")">
            <label for="after_sequence">\(words("my_data_page.filter.after"))</label><input type="number" id="after_sequence" name="after_sequence" min="0" value="\(filter.afterSequence.map(String.init) ?? "")">
            <button type="submit" class="secondary">\(words("my_data_page.filter.show"))</button>
            </form>
            """
    }

    private func row(_ item: ResponseInWords) -> String {
        let answers = item.answers.map { #"<li><span class="question">\#(HTMLText.escape($0.question))</span> \#(HTMLText.escape($0.answer))</li>"# }.joined()
        let kind = item.record.surveyKind == Survey.Kind.registration.rawValue
            ? "my_data_page.kind.joined" : item.record.volunteered ? "my_data_page.kind.volunteered" : "my_data_page.kind.beep"
        return #"<tr><td>\#(item.record.sequence.map(String.init) ?? "")</td><td>\#(HTMLText.escape(item.localTime))<br><span class="hint">\#(words(kind))</span></td><td><ul>\#(answers)</ul></td></tr>"#
    }

    private struct PhotoRow: Decodable {
        let id: UUID
        let startedAt: Date
        let timezone: String

        enum CodingKeys: String, CodingKey { case id, startedAt = "started_at", timezone }
    }

    /// The participant's photos from the chosen responses, newest first.
    private func gallery() async throws -> String {
        var query: SQLQueryString = """
            SELECT b.id, r.started_at, COALESCE(r.timezone, p.timezone) AS timezone FROM blobs b JOIN responses r ON r.id = b.response_id
            JOIN participants p ON p.id = r.participant_id
            WHERE b.kind = 'photo' AND r.participant_id = \(bind: try download.participant.requireID())
            """
        query += download.filter.conditions(time: "r.submitted_at", participant: "r.participant_id", responseID: "r.id")
        query += " ORDER BY r.submitted_at DESC, b.id DESC"
        let photos = try await download.db.sql.raw(query).all(decoding: PhotoRow.self)
        guard !photos.isEmpty else { return "" }
        let zone = download.zone
        let times = LocalTimeText()
        let figures = photos.map { photo -> String in
            let when = HTMLText.escape(times.text(photo.startedAt, in: zone))
            let alt = AppCatalogues.html("my_data_page.photo_of", language: language, ["when": when])
            return #"<figure><a href="\#(base)/photos/\#(photo.id.uuidString.lowercased()).jpg"><img src="\#(base)/photos/\#(photo.id.uuidString.lowercased()).jpg" alt="\#(alt)" loading="lazy"></a><figcaption>\#(when)</figcaption></figure>"#
        }.joined()
        return #"<section aria-labelledby="photos-title"><h2 id="photos-title">\#(words("my_data_page.photos"))</h2><div class="my-photos">\#(figures)</div></section>"#
    }
}

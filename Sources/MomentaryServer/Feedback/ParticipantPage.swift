import MomentaryCore
/// A complete HTML page for participants outside the app (the feedback page, the personal data
/// download), styled by the app's own stylesheet so both look the same on a phone. `opening` and
/// `closing` let a long page be streamed between them.
enum ParticipantPage {
    /// `language`: the participant's; the page says which catalogue's words it shows, and runs
    /// right to left for Arabic.
    static func document(title: String, language: String?, body: String) -> String {
        opening(title: title, language: language) + body + closing
    }

    static func opening(title: String, language: String?) -> String {
        let shown = AppCatalogues.catalogue(for: language)
        return """
        <!doctype html>
        <html lang="\(shown)" dir="\(LanguageTag.base(of: shown) == "ar" ? "rtl" : "ltr")">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="robots" content="noindex">
        <meta name="referrer" content="no-referrer">
        <title>\(HTMLText.escape(title)) · Momentary</title>
        <link rel="stylesheet" href="/app/app.css">
        </head>
        <body>
        <main id="app" class="page"><section class="screen">
        <h1>\(HTMLText.escape(title))</h1>

        """
    }

    static let closing = "\n</section></main>\n</body>\n</html>\n"
}

import Fluent
import MomentaryCore
import Vapor

/// `/studies/:slug/surveys/:surveyID/preview[?version=n]`: a survey drawn by the participant web
/// app's own survey screen (`/app/js/preview.js` runs `survey-view.js`), for the editor and the
/// version pages to show in a phone-sized frame. In the editor it follows the JSON as it is typed.
/// Nothing is saved or sent from it.
struct SurveyPreviewRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.surveyPreview, use: preview)
    }

    struct PreviewPage: Encodable {
        let title: String
        /// The version's document with its texts in `language` (JSON).
        let document: String
        /// The study language shown (`?lang=`, else the default), and all of them as a JSON list
        /// (for the editor's typed JSON, whose texts the page picks by this exact tag).
        let language: String
        let languages: String
        let version: Int
        let choices: [Choice]

        struct Choice: Encodable {
            let tag: String
            let name: String
            let selected: Bool
        }
    }

    /// Framed by the website's own pages only; everything else as the website's policy.
    static let contentSecurityPolicy = SecurityHeadersMiddleware.defaultPolicy
        .replacingOccurrences(of: "frame-ancestors 'none'", with: "frame-ancestors 'self'")

    func preview(request: Request) async throws -> Response {
        let (study, survey) = try await request.studySurvey()
        let number = try request.query.get(Int?.self, at: "version") ?? survey.currentVersion
        guard let version = try await SurveyCatalog.version(number, of: try survey.requireID(), on: request.db) else {
            throw Abort(.notFound, reason: "This survey has no version \(number).")
        }
        let languages = study.languages
        let language = (try? request.query.get(String.self, at: "lang")).flatMap { StudyLanguages.offered($0, in: languages) } ?? languages[0]
        let document = try SurveyStore.text(of: try SurveyCatalog.document(of: version).localized(for: [language], languages: languages))
        let response = try await request.page("survey-app-preview", PreviewPage(
            title: "Preview of \(survey.name), version \(number) · \(study.name)", document: document,
            language: language, languages: String(decoding: try JSONEncoder().encode(languages), as: UTF8.self), version: number,
            choices: languages.count > 1
                ? languages.map { .init(tag: $0, name: QuestionTranslationFields.displayName(of: $0), selected: $0 == language) } : []))
        response.headers.replaceOrAdd(name: "Content-Security-Policy", value: Self.contentSecurityPolicy)
        response.headers.replaceOrAdd(name: "X-Frame-Options", value: "SAMEORIGIN")
        return response
    }
}

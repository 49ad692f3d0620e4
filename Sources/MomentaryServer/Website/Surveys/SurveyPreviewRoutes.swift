import Fluent
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
        /// The version's document, as stored (JSON).
        let document: String
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
        let response = try await request.page("survey-app-preview", PreviewPage(
            title: "Preview of \(survey.name), version \(number) · \(study.name)", document: version.document))
        response.headers.replaceOrAdd(name: "Content-Security-Policy", value: Self.contentSecurityPolicy)
        response.headers.replaceOrAdd(name: "X-Frame-Options", value: "SAMEORIGIN")
        return response
    }
}

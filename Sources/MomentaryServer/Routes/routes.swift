import Foundation
import Vapor

/// Every route collection the server serves, in one list. Middleware that applies to all of them
/// is installed by `configure`; what applies to a part (sessions and CSRF checks to the website,
/// security headers to the web app) is grouped here, around that part alone.
func routes(_ app: Application, configuration: Configuration, timeSource: any TimeSource) throws {
    let blobs = BlobStore(dataDirectory: configuration.dataDirectory)

    // `/healthz` and `/metrics`.
    try app.routes.register(collection: HealthRoutes())

    // For participants: the API (`/api/v1`), their data download and public statistics.
    try app.routes.register(collection: ParticipantAPIRoutes(
        timeSource: timeSource, blobs: blobs, registrationsPerStudy: configuration.studyRegistrationLimit,
        streamLimits: configuration.streamLimits))
    try app.routes.register(collection: PersonalDataRoutes(timeSource: timeSource, blobs: blobs))
    try app.routes.register(collection: PublicStatisticsRoutes(blobs: blobs))

    // For researchers' scripts: the research API (`/api/v1/research`, personal access tokens).
    try app.routes.register(collection: ResearchAPIRoutes())

    // The researcher website.
    let site = app.routes.grouped(WebsiteErrorMiddleware(), SecureCookieMiddleware(), app.sessions.middleware, CSRFMiddleware())
    try site.register(collection: SignInRoutes())
    try site.register(collection: SignInCodeRoutes())
    try site.register(collection: PasswordResetRoutes())
    try site.register(collection: DocsRoutes(logger: app.logger))
    let signedIn = site.grouped(SignedInMiddleware(), AuditMiddleware())
    for collection: any RouteCollection in [
        StudyRoutes(), StudyEndRoutes(), ParticipantDateRoutes(), ParticipantVariableRoutes(), MessageRoutes(), ExpectedStreamsRoutes(), ArmRoutes(), WebhookRoutes(), AlertRoutes(), InviteeRoutes(),
        ParticipantRoutes(), ResponseRoutes(), ExportRoutes(), StreamDownloadRoutes(),
        SurveyEditorRoutes(), SurveyVersionRoutes(), SurveyPreviewRoutes(), QuestionBuilderRoutes(), ScheduleRoutes(),
        AdminRoutes(), AccountRoutes(), TwoStepRoutes(), AccessTokenRoutes(), AuditRoutes(),
    ] {
        try signedIn.register(collection: collection)
    }

    // The participant web app (`/app`, `/join/<slug>`, the service worker and the manifest).
    try app.routes.register(collection: ParticipantWebApp(source: WebAppSource(environment: ProcessInfo.processInfo.environment)))
}

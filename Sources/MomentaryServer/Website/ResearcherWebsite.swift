import Fluent
import Foundation
import Leaf
import LeafKit
import Vapor

/// The researcher website: server-rendered Leaf pages under `/`, signed in with a session cookie.
/// The participant API, `/healthz` and `/metrics` are not touched: sessions and CSRF checks apply
/// only to the routes registered here.
enum ResearcherWebsite {
    static func configure(_ app: Application) throws {
        guard let resources = Bundle.module.resourceURL?.appendingPathComponent("Views", isDirectory: true).path else {
            throw CommandFailure("The website's templates are missing from the build.")
        }
        app.views.use(.leaf)
        app.leaf.tags["path"] = SitePathTag()
        // Not `.default`: it refuses paths through hidden folders, and build folders may be hidden (`.build`).
        app.leaf.sources = LeafSources.singleSource(NIOLeafFiles(
            fileio: app.fileio, limits: [.toSandbox, .requireExtensions, .onlyLeafExtensions],
            sandboxDirectory: resources, viewDirectory: resources + "/"))

        app.sessions.use(.fluent)
        let clock = app.timeSource
        app.sessions.configuration = SessionsConfiguration(cookieName: WebSession.cookieName) { id in
            HTTPCookies.Value(
                string: id.string, expires: clock.now().addingTimeInterval(WebSession.lifetime), maxAge: nil,
                path: "/", isSecure: false, isHTTPOnly: true, sameSite: .lax)
        }

        let site = app.routes.grouped(WebsiteErrorMiddleware(), SecureCookieMiddleware(), app.sessions.middleware, CSRFMiddleware())
        try site.register(collection: SignInRoutes())
        try site.register(collection: DocsRoutes(logger: app.logger))
        let signedIn = site.grouped(SignedInMiddleware(), AuditMiddleware())
        try signedIn.register(collection: StudyRoutes())
        try signedIn.register(collection: StudyEndRoutes())
        try signedIn.register(collection: ParticipantDateRoutes())
        try signedIn.register(collection: ExpectedStreamsRoutes())
        try signedIn.register(collection: InviteeRoutes())
        try signedIn.register(collection: ParticipantRoutes())
        try signedIn.register(collection: ResponseRoutes())
        try signedIn.register(collection: ExportRoutes())
        try signedIn.register(collection: StreamDownloadRoutes())
        try signedIn.register(collection: SurveyEditorRoutes())
        try signedIn.register(collection: SurveyVersionRoutes())
        try signedIn.register(collection: SurveyPreviewRoutes())
        try signedIn.register(collection: QuestionBuilderRoutes())
        try signedIn.register(collection: ScheduleRoutes())
        try signedIn.register(collection: AdminRoutes())
        try signedIn.register(collection: AccountRoutes())
        try signedIn.register(collection: AuditRoutes())
    }
}

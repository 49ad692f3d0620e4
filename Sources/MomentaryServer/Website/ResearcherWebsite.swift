import Fluent
import Foundation
import Leaf
import LeafKit
import Vapor

/// The researcher website's templates and sessions: server-rendered Leaf pages under `/`, signed
/// in with a session cookie. Its routes are listed in `routes(_:configuration:timeSource:)`.
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
    }
}

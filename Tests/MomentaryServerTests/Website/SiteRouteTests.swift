import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import Vapor

/// The website's addresses are written once, in `SiteRoute`: handlers are registered from it and
/// templates link with `#path(…)`.
@Suite("Website: typed routes")
struct SiteRouteTests {
    /// Routes that belong to other parts of the server: the participant API, the participant's own
    /// pages, the participant app's files, health and metrics.
    static func isOutsideTheWebsite(_ path: [String]) -> Bool {
        guard let first = path.first else { return false }
        return ["api", "my", "healthz", "metrics", "sw.js", "manifest.webmanifest", "website.css", "website.js"].contains(first)
            || (first == "app" && path.count > 1)
    }

    @Test("every site route has a handler, and every website handler is registered from a site route")
    func registration() async throws {
        try await withTestApp { app, _ in
            let registered = app.routes.all.map { $0.path.map(\.description) }
            let listed = SiteRoute.all.map { $0.pathComponents.map(\.description) }
            for (route, components) in zip(SiteRoute.all, listed) {
                #expect(registered.contains(components), "\(route.name) (\(route.template)) has no handler")
            }
            for path in registered where !Self.isOutsideTheWebsite(path) {
                #expect(listed.contains(path), "/\(path.joined(separator: "/")) is registered by hand, not from SiteRoute")
            }
        }
    }

    @Test("names are unique and match the templates' parameters")
    func catalogue() {
        #expect(Set(SiteRoute.all.map(\.name)).count == SiteRoute.all.count)
        #expect(Set(SiteRoute.all.map(\.template)).count == SiteRoute.all.count)
        #expect(SiteRoute.study.path("city-moods") == "/studies/city-moods")
        #expect(SiteRoute.home.path() == "/")
    }

    @Test("templates link only through #path with a known route and the right number of parameters")
    func templates() throws {
        let views = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/MomentaryServer/Website/Views")
        let files = try FileManager.default.contentsOfDirectory(atPath: views.path).filter { $0.hasSuffix(".leaf") }
        #expect(files.count > 20)
        let tag = try Regex(#"#path\(([^)]*)\)"#)
        // Literal addresses left in templates may only be static files.
        let literal = try Regex(##"(?:href|action|src)="(/[^"#]*)""##)
        var uses = 0
        for file in files {
            let text = try String(contentsOf: views.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: tag) {
                uses += 1
                let arguments = String(text[match.range].dropFirst(6).dropLast()).split(separator: ",")
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                let name = arguments[0].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                let route = SiteRoute.named[name]
                #expect(route != nil, "\(file): #path names “\(name)”, which is not a site route")
                if let route {
                    #expect(arguments.count - 1 == route.template.parameterNames.count,
                            "\(file): #path(\"\(name)\") needs \(route.template.parameterNames.count) parameter(s)")
                }
            }
            for match in text.matches(of: literal) {
                let path = String(text[match.range]).split(separator: "\"")[1]
                #expect(["/website.css", "/website.js"].contains(path) || path.hasPrefix("/app/"), "\(file) writes the address \(path) by hand")
            }
        }
        #expect(uses > 60)
    }

    @Test("a rendered page's links carry the study's address")
    func renderedLinks() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let page = try await client.get(SiteRoute.surveys.path(world.studyA.slug))
            #expect(page.status == .ok)
            let html = page.body.string
            #expect(html.contains(#"href="/studies/study-a/settings""#))
            #expect(html.contains(#"action="/studies/study-a/surveys""#))
            #expect(html.contains("href=\"/studies/study-a/surveys/\(world.surveyA.uuidString)/versions\""))
        }
    }
}

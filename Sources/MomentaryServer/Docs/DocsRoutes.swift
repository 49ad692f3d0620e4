import Foundation
import Synchronization
import Vapor

/// `/docs` and `/docs/<name>`: the Markdown guides of the repository's `docs/` as pages, so the
/// website can link to them instead of naming files in the sources. Public: they say nothing about
/// any study. Read from `MOMENTARY_DOCS_DIR`, else from the checkout the server was built in
/// (SwiftPM cannot bundle a folder outside the target); each page is rendered once and kept.
struct DocsRoutes: RouteCollection {
    static let directoryVariable = "MOMENTARY_DOCS_DIR"
    private let rendered: [String: String]

    init(environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger) {
        let folder = environment[Self.directoryVariable].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../../docs", isDirectory: true).standardizedFileURL
        rendered = Self.pages(in: folder, logger: logger)
    }

    /// Rendered once per folder and process: every server (and every test application) shares them.
    private static let cache = Mutex<[String: [String: String]]>([:])

    private static func pages(in folder: URL, logger: Logger) -> [String: String] {
        if let known = cache.withLock({ $0[folder.path] }) { return known }
        var rendered: [String: String] = [:]
        for page in DocsPages.pages {
            guard let markdown = try? String(contentsOf: folder.appendingPathComponent(page.name + ".md"), encoding: .utf8) else {
                logger.warning("The guide \(page.name).md is not in \(folder.path); /docs/\(page.name) answers 404. Set \(Self.directoryVariable) to the docs folder.")
                continue
            }
            rendered[page.name] = MarkdownHTML.render(markdown, linkResolver: MarkdownHTML.docsLink)
        }
        cache.withLock { $0[folder.path] = rendered }
        return rendered
    }

    struct DocsPage: Encodable {
        let title: String
        let pages: [Link]
        /// The page's HTML, rendered from trusted Markdown with every text escaped; nil on the index.
        let body: String?
        struct Link: Encodable {
            let name: String
            let title: String
            let current: Bool
        }
    }

    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.docs) { request in try await render(request, page: nil) }
        routes.get(SiteRoute.doc) { request in
            let name = try request.parameters.require("name")
            guard let page = DocsPages.pages.first(where: { $0.name == name }), rendered[page.name] != nil else {
                throw Abort(.notFound, reason: "There is no guide “\(name.prefix(40))” on this server; the guides are listed at /docs.")
            }
            return try await render(request, page: page)
        }
    }

    private func render(_ request: Request, page: DocsPages.Page?) async throws -> Response {
        try await request.page("docs", DocsPage(
            title: page?.title ?? "Guides", pages: DocsPages.pages.filter { rendered[$0.name] != nil }.map { .init(name: $0.name, title: $0.title, current: $0 == page) },
            body: page.flatMap { rendered[$0.name] }))
    }
}

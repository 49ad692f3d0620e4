import Fluent
import Foundation
import Vapor

/// The participant web app: one HTML shell for every screen (`/app…`, `/join/<slug>`), its
/// scripts and styles under `/app/`, the service worker at `/sw.js` (scope `/`) and the manifest.
/// It talks to the server only through `/api/v1`, like any other participant app.
struct ParticipantWebApp: RouteCollection {
    /// For development: serve the files straight from this folder, re-read on every request.
    static let developmentDirectoryVariable = "MOMENTARY_WEB_APP_DIR"
    static let shellPath = "app/index.html"

    let source: WebAppSource

    func boot(routes builder: any RoutesBuilder) throws {
        let source = self.source
        let shellPath = Self.shellPath
        let routes = builder.grouped(WebAppHeadersMiddleware())
        routes.get("sw.js") { request in
            try source.response(for: WebAppFiles.serviceWorkerPath, to: request, headers: ["Service-Worker-Allowed": "/"])
        }
        routes.get("manifest.webmanifest") { request in try source.response(for: "manifest.webmanifest", to: request) }
        // The researcher website's stylesheet and script, served the same way (not part of the app's cache).
        routes.get("website.css") { request in try source.response(for: "website.css", to: request) }
        routes.get("website.js") { request in try source.response(for: "website.js", to: request) }
        routes.get(SiteRoute.participantApp) { request in try source.response(for: shellPath, to: request) }
        routes.get(SiteRoute.join) { request in
            let slug = request.parameters.get("slug") ?? ""
            let code = request.query[String.self, at: "code"]
            return try source.response(for: shellPath, to: request) { JoinManifest.shell($0, slug: slug, code: code) }
        }
        routes.get(SiteRoute.joinManifest) { request in
            let slug = request.parameters.get("slug") ?? ""
            guard let study = try await Study.query(on: request.db).filter(\.$slug == slug).first() else { throw Abort(.notFound) }
            let code = request.query[String.self, at: "code"]
            return try source.response(for: "manifest.webmanifest", to: request) {
                (try? JoinManifest.manifest(from: $0, slug: slug, code: code, studyName: study.name)) ?? $0
            }
        }
        routes.get("app", "**") { request in
            let rest = request.parameters.getCatchall()
            // A last segment with a dot names a file; anything else is a screen of the app.
            guard let last = rest.last, last.contains(".") else { return try source.response(for: shellPath, to: request) }
            guard !rest.contains(where: { $0.hasPrefix(".") || $0.isEmpty }) else { throw Abort(.notFound) }
            return try source.response(for: "app/" + rest.joined(separator: "/"), to: request)
        }
    }
}

/// Where the files come from: the build's resource bundle, read once, or a development folder.
struct WebAppSource: Sendable {
    private let bundled: WebAppFiles?
    private let developmentDirectory: URL?

    init(environment: [String: String]) throws {
        if let path = environment[ParticipantWebApp.developmentDirectoryVariable], !path.isEmpty {
            developmentDirectory = URL(fileURLWithPath: path, isDirectory: true)
            bundled = nil
            _ = try WebAppFiles(directory: URL(fileURLWithPath: path, isDirectory: true))
            return
        }
        guard let directory = Bundle.module.resourceURL?.appendingPathComponent("Public", isDirectory: true) else {
            throw CommandFailure("The participant web app is missing from the build.")
        }
        bundled = try WebAppFiles(directory: directory)
        developmentDirectory = nil
    }

    func files() throws -> WebAppFiles {
        if let bundled { return bundled }
        return try WebAppFiles(directory: developmentDirectory!)
    }

    /// The file, or 304 when the browser's copy is current. `no-cache`: the browser keeps files
    /// but asks each time, so an upgraded server is seen at once (the ETag makes asking cheap).
    /// `rewrite` makes a variant of the file for this request (a join link's manifest), with its own ETag.
    func response(
        for path: String, to request: Request, headers extra: [String: String] = [:], rewrite: ((Data) -> Data)? = nil
    ) throws -> Response {
        guard var file = try files()[path] else { throw Abort(.notFound) }
        if let rewrite {
            let body = rewrite(file.body)
            file = WebAppFiles.File(body: body, contentType: file.contentType, etag: "\"\(BlobStore.sha256(body).prefix(32))\"")
        }
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .eTag, value: file.etag)
        headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
        for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
        if request.headers[.ifNoneMatch].contains(where: { $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == file.etag } }) {
            return Response(status: .notModified, headers: headers)
        }
        headers.replaceOrAdd(name: .contentType, value: file.contentType)
        if WebAppFiles.isCompressible(file.contentType) { headers.responseCompression = .enable }
        return Response(status: .ok, headers: headers, body: .init(data: file.body))
    }
}

/// The app's pages run no inline script and load nothing from elsewhere; they may not be framed.
struct WebAppHeadersMiddleware: AsyncMiddleware {
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:",
        "media-src 'self' blob:", "connect-src 'self'", "worker-src 'self'", "manifest-src 'self'",
        "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        response.headers.replaceOrAdd(name: "Content-Security-Policy", value: Self.contentSecurityPolicy)
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
        response.headers.replaceOrAdd(name: "Permissions-Policy", value: "geolocation=(self), microphone=(self), camera=(self)")
        return response
    }
}

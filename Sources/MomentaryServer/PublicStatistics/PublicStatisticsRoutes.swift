import Fluent
import Foundation
import MomentaryCore
import Vapor

/// The public face of a study that switches it on: its statistics as JSON
/// (`GET /api/v1/studies/{slug}/statistics`, registered with the participant API), the page
/// `/studies/{slug}/public` that draws them and may be framed by the study's own website, and the
/// photos of the feed, served without their metadata. Every answer comes from the refreshed copy.
struct PublicStatisticsRoutes: RouteCollection {
    let blobs: BlobStore

    /// Framing is allowed from anywhere: the page is meant to be embedded. Nothing else is loosened.
    static let pagePolicy = [
        "default-src 'self'", "script-src 'none'", "style-src 'self'", "img-src 'self' data:",
        "object-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors *",
    ].joined(separator: "; ")

    func boot(routes: any RoutesBuilder) throws {
        let routes = routes.grouped(ParticipantPageErrors())
        routes.get(SiteRoute.publicStatistics) { request in try await page(request) }
        routes.get(SiteRoute.publicPhoto) { request in try await photo(request) }
    }

    /// The study's latest statistics, or a 404 while it does not show them (or has no such study).
    static func cachedRow(slug: String, on db: any Database) async throws -> CachedPublicStatistics {
        guard let study = try await Study.query(on: db).filter(\.$slug == slug).first(), study.publicStatisticsEnabled else {
            throw APIError.notFound("There are no public statistics for “\(slug.prefix(40))”.")
        }
        guard let row = try await CachedPublicStatistics.query(on: db).filter(\.$study.$id == study.requireID()).first() else {
            throw APIError(.serviceUnavailable, code: APIErrorCode.serviceUnavailable.rawValue,
                           "The statistics are being prepared; try again in a few minutes.")
        }
        return row
    }

    /// The latest statistics decoded, for the page and the photo feed (the JSON is served as stored).
    static func cached(slug: String, on db: any Database) async throws -> (statistics: PublicStatistics, row: CachedPublicStatistics) {
        let row = try await cachedRow(slug: slug, on: db)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try decoder.decode(PublicStatistics.self, from: Data(row.body.utf8)), row)
    }

    /// The JSON with its ETag: a browser or embedding site that has it gets a 304.
    static func json(_ request: Request) async throws -> Response {
        let row = try await cachedRow(slug: request.parameters.get("slug") ?? "", on: request.db)
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .eTag, value: row.etag)
        headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=60")
        headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: "*")
        if request.headers.first(name: .ifNoneMatch) == row.etag { return Response(status: .notModified, headers: headers) }
        headers.replaceOrAdd(name: .contentType, value: "application/json; charset=utf-8")
        return Response(status: .ok, headers: headers, body: .init(string: row.body))
    }

    private func page(_ request: Request) async throws -> Response {
        let slug = request.parameters.get("slug") ?? ""
        let (statistics, row) = try await Self.cached(slug: slug, on: request.db)
        // In the study language that serves the visitor's browser best, as the join page.
        let languages = try await Study.query(on: request.db).filter(\.$slug == slug).first()?.languages ?? StudyLanguages.default
        let language = LanguageTag.choose(try request.preferredLanguages(), among: languages)
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .eTag, value: String(row.etag.dropLast()) + "-" + (language ?? "en") + "\"")
        headers.replaceOrAdd(name: .vary, value: "Accept-Language")
        headers.replaceOrAdd(name: "Content-Security-Policy", value: Self.pagePolicy)
        return ParticipantPage.response(
            PublicStatisticsPage.html(statistics, language: language), cacheControl: "public, max-age=60", headers: headers)
    }

    /// A photo of the current feed, without EXIF or any other metadata; nothing else is served.
    private func photo(_ request: Request) async throws -> Response {
        let slug = request.parameters.get("slug") ?? ""
        let (statistics, _) = try await Self.cached(slug: slug, on: request.db)
        let name = request.parameters.get("photo") ?? ""
        guard statistics.photos.contains(where: { $0.url == SiteRoute.publicPhoto.path(slug, name) }),
              name.hasSuffix(".jpg"), let id = UUID(uuidString: String(name.dropLast(4))),
              let blob = try await Blob.find(id, on: request.db),
              let clean = JPEGMetadata.stripped(try blobs.read(blob.storagePath))
        else { throw APIError.notFound("There is no such public photo.") }
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: "image/jpeg")
        headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=600")
        return Response(status: .ok, headers: headers, body: .init(data: clean))
    }
}

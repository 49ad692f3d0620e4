import Fluent
import Foundation
import MomentaryCore
import Vapor

/// `/my/{code}`: a participant's own data behind their secret link, as a page and as files, and
/// their photos. Each address may make `requestLimit` requests a minute and, to stop guessing,
/// `failureLimit` requests for unknown links in ten minutes; an unknown, disabled or malformed code
/// gets the same 404 by the same path.
struct PersonalDataRoutes: RouteCollection {
    let timeSource: any TimeSource
    let blobs: BlobStore
    let requests = RequestRateLimiter(limit: requestLimit, window: 60)
    let failures = RequestRateLimiter(limit: failureLimit, window: 10 * 60)

    static let requestLimit = 300
    static let failureLimit = 20
    static let unknownLink = "There is no data at this link. It may have been turned off, or replaced by a newer link."

    func boot(routes: any RoutesBuilder) throws {
        let my = routes.grouped(ParticipantPageErrors()).grouped("my", ":code")
        my.get { request in try await file(.html, request) }
        my.get(":file") { request in
            let name = request.parameters.get("file") ?? ""
            guard let format = PersonalDownload.Format.allCases.first(where: { $0.fileName == name }) else {
                throw Abort(.notFound, reason: Self.unknownLink)
            }
            return try await file(format, request)
        }
        my.get("photos", ":photo") { request in try await photo(request) }
    }

    private func file(_ format: PersonalDownload.Format, _ request: Request) async throws -> Response {
        let (participant, study) = try await owner(request)
        let zone = ParticipantTimeZone.resolve(participant.timeZone, studyDefault: study.defaultTimeZone)
        let filter = try PersonalDownload.filter(
            from: request.query[String.self, at: "from"], to: request.query[String.self, at: "to"],
            afterSequence: request.query[String.self, at: "after_sequence"], participantID: try participant.requireID(), zone: zone)
        let code = SecretCode.grouped(DownloadCode.canonical(request.parameters.get("code") ?? "") ?? "")
        let download = PersonalDownload(participant: participant, study: study, code: code, filter: filter, db: request.db)
        return download.response(format, logger: request.logger)
    }

    private func photo(_ request: Request) async throws -> Response {
        let (participant, _) = try await owner(request)
        let name = request.parameters.get("photo") ?? ""
        guard name.hasSuffix(".jpg"), let id = UUID(uuidString: String(name.dropLast(4))),
              let blob = try await Blob.find(id, on: request.db), blob.kind == .photo,
              blob.$participant.id == participant.id
        else { throw Abort(.notFound, reason: "There is no such photo of yours.") }
        let data = try blobs.read(blob.storagePath)
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: "image/jpeg")
        headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=3600")
        return Response(status: .ok, headers: headers, body: .init(data: data))
    }

    /// The link's owner, after the rate limits; every kind of bad code ends in the same 404.
    private func owner(_ request: Request) async throws -> (Participant, Study) {
        let address = ClientAddress.of(request)
        let now = timeSource.now()
        guard await requests.allow(address, now: now), await !failures.isLimited(address, now: now) else {
            throw APIError(.tooManyRequests, "Too many requests from your address. Please wait a few minutes.").retryingAfter(seconds: 60)
        }
        guard let owner = try await DataDownloadService.owner(ofCode: request.parameters.get("code") ?? "", on: request.db) else {
            _ = await failures.allow(address, now: now)
            throw Abort(.notFound, reason: Self.unknownLink)
        }
        return owner
    }
}

import Fluent
import Foundation
import MomentaryCore
import Vapor

/// `/studies/:slug/export/streams?participant=ID&stream=NAME[&from&to]`: the website's form of
/// `momentary export streams`, one participant's stream as one CSV download.
struct StreamDownloadRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.exportStreams, use: download)
    }

    struct Query: Content {
        var participant: String?
        var stream: String?
        var from: String?
        var to: String?
    }

    func download(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .exportResponses)
        let query = try request.query.decode(Query.self)
        do {
            guard let stream = query.stream.flatMap(PassiveStream.init(rawValue:)) else {
                throw ExportRequestError("Choose a stream: one of \(PassiveStream.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            let filter = try ExportFilter.parse(from: query.from, to: query.to, participants: [query.participant ?? ""])
            guard let participant = try await Participant.find(filter.participantIDs[0], on: request.db),
                  participant.$study.id == study.id
            else {
                throw ExportRequestError("Participant \(filter.participantIDs[0].uuidString.lowercased()) is not in study “\(study.slug)”.")
            }
            let result = try await StreamExport.csv(
                participantID: try participant.requireID(), stream: stream, from: filter.earliest, end: filter.end,
                blobs: BlobStore(dataDirectory: request.application.momentaryConfiguration.dataDirectory), on: request.db)
            let researcherID = try request.researcher.id
            request.logger.info("Export of \(stream.rawValue) of a participant of “\(study.slug)” by researcher \(researcherID)")
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .contentType, value: WireCoding.csvContentType)
            let name = "\(study.slug)-\(participant.label ?? String(filter.participantIDs[0].uuidString.lowercased().prefix(8)))-\(stream.rawValue).csv"
            headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"\(name)\"")
            return Response(status: .ok, headers: headers, body: .init(data: result.csv))
        } catch let problem as ExportRequestError {
            return try await ExportRoutes().render(request, study: study, query: .init(), problem: problem.message, status: .badRequest)
        }
    }
}

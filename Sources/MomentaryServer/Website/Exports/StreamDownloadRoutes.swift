import Fluent
import Foundation
import MomentaryCore
import Vapor

/// `/studies/:slug/export/streams?participant[]=ID&stream[]=NAME[&from&to]`: the website's form of
/// `momentary export streams`. One participant's stream is one CSV, streamed a day at a time;
/// several are one ZIP with a `LABEL/STREAM.csv` entry each, made in a scratch file and then sent.
struct StreamDownloadRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.exportStreams, use: download)
    }

    struct Query: Content {
        init(participant: [String]? = nil, stream: [String]? = nil, from: String? = nil, to: String? = nil) {
            (self.participant, self.stream, self.from, self.to) = (participant, stream, from, to)
        }

        var participant: [String]?
        var stream: [String]?
        var from: String?
        var to: String?
    }

    func download(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .exportResponses)
        let query = try request.query.decode(Query.self)
        let selection: StreamExportSelection
        let filter: ExportFilter
        do {
            filter = try ExportFilter.parse(from: query.from, to: query.to, participants: [])
            selection = try await .resolve(participants: query.participant ?? [], streams: query.stream ?? [], in: study, on: request.db)
        } catch let problem as ExportRequestError {
            return try await refuse(request, study: study, query: query, problem: problem.message)
        } catch let problem as StreamExportSelection.Problem {
            return try await refuse(request, study: study, query: query, problem: problem.message)
        } catch let failure as CommandFailure {
            return try await refuse(request, study: study, query: query, problem: failure.description)
        }
        let researcherID = try request.researcher.id
        request.logger.info("Export of \(selection.streams.map(\.rawValue).joined(separator: ", ")) of \(selection.participants.count) participant(s) of “\(study.slug)” by researcher \(researcherID)")
        let blobs = BlobStore(dataDirectory: request.application.momentaryConfiguration.dataDirectory)
        return selection.isArchive
            ? try await archive(selection, filter: filter, study: study, blobs: blobs, request: request)
            : try csv(selection, filter: filter, study: study, blobs: blobs, request: request)
    }

    private func csv(
        _ selection: StreamExportSelection, filter: ExportFilter, study: Study, blobs: BlobStore, request: Request
    ) throws -> Response {
        let (participantID, stream) = (try selection.participants[0].requireID(), selection.streams[0])
        let name = "\(study.slug)-\(try StreamExportSelection.name(of: selection.participants[0]))-\(stream.rawValue).csv"
        let (db, logger) = (request.db, request.logger)
        return Response(status: .ok, headers: Self.headers(contentType: WireCoding.csvContentType, fileName: name),
                        body: .init(managedAsyncStream: { writer in
            do {
                _ = try await StreamExport.write(
                    participantID: participantID, stream: stream, from: filter.earliest, end: filter.end, blobs: blobs, on: db
                ) { piece in try await writer.writeBuffer(ByteBuffer(data: piece)) }
            } catch {
                logger.error("Stream download of \(stream.rawValue) failed: \(String(describing: error))")
                throw error
            }
        }))
    }

    private func archive(
        _ selection: StreamExportSelection, filter: ExportFilter, study: Study, blobs: BlobStore, request: Request
    ) async throws -> Response {
        let folder = try ScratchFolder.make("streams")
        let zip = folder.appendingPathComponent("streams.zip")
        do {
            _ = try await StreamArchive.write(selection, from: filter.earliest, end: filter.end, to: zip, blobs: blobs, on: request.db)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        let logger = request.logger
        return Response(status: .ok, headers: Self.headers(contentType: "application/zip", fileName: "\(study.slug)-streams.zip"),
                        body: .init(managedAsyncStream: { writer in
            defer { try? FileManager.default.removeItem(at: folder) }
            do {
                let handle = try FileHandle(forReadingFrom: zip)
                defer { try? handle.close() }
                while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
                    try await writer.writeBuffer(ByteBuffer(data: chunk))
                }
            } catch {
                logger.error("Stream archive download failed: \(String(describing: error))")
                throw error
            }
        }))
    }

    private static func headers(contentType: String, fileName: String) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: contentType)
        headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"\(fileName)\"")
        headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return headers
    }

    private func refuse(_ request: Request, study: Study, query: Query, problem: String) async throws -> Response {
        try await ExportRoutes().render(
            request, study: study, query: .init(), problem: nil, status: .badRequest, streamQuery: query, streamProblem: problem)
    }
}

import Fluent
import MomentaryCore
import Vapor

/// `/api/v1/research/…`: the study data and actions a researcher's scripts reach with a personal
/// access token. Each route checks the same permission as the website's page for the same thing.
struct ResearchAPIRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let authenticated = routes.grouped(ResearchAPIAuthenticator())
        register(.researchStudies, on: authenticated, use: studies)
        register(.researchStudy, on: authenticated, use: study)
        // A study with many translated surveys is larger than other bodies (256 KiB).
        register(.researchUpdateStudy, on: authenticated, maxBodySize: "4mb", use: updateStudy)
        register(.researchExport, on: authenticated, use: export)
        register(.researchInvitees, on: authenticated, use: createInvitees)
        register(.researchParticipantBeeps, on: authenticated, use: triggerBeep)
        register(.researchParticipants, on: authenticated, use: participants)
        register(.researchBeeps, on: authenticated, use: beeps)
        register(.researchResponses, on: authenticated, use: responses)
        register(.researchParticipantStatus, on: authenticated, use: changeStatus)
        register(.researchParticipantDates, on: authenticated, use: changeDates)
        register(.researchParticipantVariables, on: authenticated, use: changeVariables)
        register(.researchMessages, on: authenticated, use: sendMessage)
        register(.researchParticipantDeleteData, on: authenticated, use: deleteData)
        register(.researchParticipantErase, on: authenticated, use: erase)
        register(.researchRestrictInvitee, on: authenticated, use: restrictInvitee)
    }

    struct StudySummary: Content {
        let slug: String
        let name: String
        let archived: Bool
        let participants: Int
    }

    func studies(_ request: Request) async throws -> Response {
        let researcher = try request.researcher
        var result: [StudySummary] = []
        for study in try await Study.query(on: request.db).sort(\.$slug).all() where researcher.canAccess(studyID: try study.requireID()) {
            let participants = try await Participant.query(on: request.db).filter(\.$study.$id == study.requireID()).count()
            result.append(StudySummary(slug: study.slug, name: study.name, archived: study.archivedAt != nil, participants: participants))
        }
        return try WireBody.response(["studies": result])
    }

    func study(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewStudies)
        return try WireBody.response(try await StudyTransfer.export(study, on: request.db))
    }

    /// `PUT` a study document (as `GET` gives it, or `momentary studies export` writes it): the
    /// same rules as import and the website. Answers the document now stored and what changed.
    func updateStudy(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .editStudies)
        guard let buffer = request.body.data, buffer.readableBytes > 0 else {
            throw Abort(.badRequest, reason: "Send the study document as JSON (GET /api/v1/research/studies/\(study.slug) gives the current one).")
        }
        let document: StudyDocument
        do {
            document = try StudyDocument.decode(Data(buffer.readableBytesView))
        } catch let unknown as StudyDocument.UnknownFields {
            throw Abort(.badRequest, reason: "The study document has an \(unknown.description).")
        } catch {
            throw Abort(.badRequest, reason: "The body is not a study document: \(error)")
        }
        do {
            let update = try await StudyTransfer.update(study, to: document, authorID: try request.researcher.id, on: request.db, now: request.now)
            struct Answer: Encodable {
                let study: StudyDocument
                let changes: StudyTransfer.Update
            }
            return try WireBody.response(Answer(study: try await StudyTransfer.export(study, on: request.db), changes: update))
        } catch let refusal as StudyTransfer.UpdateRefusal {
            throw Abort(.unprocessableEntity, reason: refusal.description)
        }
    }

    func export(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .exportResponses)
        let name = request.parameters.get("format") ?? ""
        guard ExportFormat(name: name) != nil else {
            throw Abort(.notFound, reason: "There is no export format “\(name.prefix(40))”; use one of \(ExportFormat.names).")
        }
        // A misspelt filter would otherwise export everything, silently.
        let unknown = QueryParameters.names(of: request).subtracting(ExportRoutes.DownloadQuery.names.subtracting(["format"]))
        guard unknown.isEmpty else {
            throw Abort(.badRequest, reason: "Unknown query parameter \(unknown.sorted().map { "“\($0.prefix(40))”" }.joined(separator: ", ")); use from, to, participant, bom and survey.")
        }
        let query = try request.query.decode(ExportRoutes.DownloadQuery.self)
        do {
            let exportRequest = try query.exportRequest(study: study.slug, format: name)
            let export = try await StudyExport.prepare(exportRequest, on: request.db, photosIn: request.application.momentaryConfiguration.dataDirectory)
            return export.response(logger: request.logger)
        } catch let problem as ExportRequestError {
            throw Abort(.badRequest, reason: problem.message)
        }
    }

    func createInvitees(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .createInvitees)
        struct Body: Decodable { let count: Int? }
        // No body makes one code; a body that is not the JSON expected is refused, not ignored.
        let count = try StrictBody.decode(Body.self, from: request, allowed: ["count"])?.count ?? 1
        guard (1...10_000).contains(count) else {
            throw Abort(.unprocessableEntity, reason: "count must be from 1 to 10000, not \(count).")
        }
        let invitees = try await InviteeService.create(count: count, studyID: study.requireID(), on: request.db, now: request.now)
        return try WireBody.response(["codes": invitees.map(\.code)], status: .created)
    }

    func register(
        _ route: APIRoute, on builder: any RoutesBuilder, maxBodySize: ByteCount? = nil,
        use handler: @escaping @Sendable (Request) async throws -> Response
    ) {
        let body: HTTPBodyStreamStrategy = maxBodySize.map { .collect(maxSize: $0) } ?? .collect
        builder.on(HTTPMethod(rawValue: route.method.rawValue), route.pathTemplate.pathComponents, body: body, use: handler)
    }
}

import Fluent
import Vapor

/// `/studies/:slug/export`: a form choosing format, dates and participants, and the streamed
/// download it submits to. Downloads are GET requests (they change nothing), so a link can be
/// bookmarked or fetched with a session cookie from a script.
struct ExportRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("studies", ":slug", "export", use: form)
        routes.get("studies", ":slug", "export", "download", use: download)
    }

    struct ExportPage: Encodable {
        let chrome: PageChrome
        let formats: [Choice]
        let participants: [Choice]
        let hasParticipants: Bool
        let from: String
        let to: String
        let problem: String?
        struct Choice: Encodable {
            let value: String
            let label: String
            let selected: Bool
        }
    }

    static let formatLabels: [(ExportFormat, String)] = [
        (.csv, "CSV, one row per answer"),
        (.contextCSV, "CSV, one row per response with its context"),
        (.xlsx, "Excel workbook: responses, context and environment"),
        (.json, "JSON, responses with answers and context"),
    ]

    /// The query a download is asked with; the form posts back the same names.
    struct DownloadQuery: Content {
        var format: String?
        var from: String?
        var to: String?
        var participant: [String]?
    }

    func form(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .exportResponses)
        return try await render(request, study: study, query: DownloadQuery(), problem: nil, status: .ok)
    }

    func download(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .exportResponses)
        let query = try request.query.decode(DownloadQuery.self)
        do {
            guard let format = ExportFormat(rawValue: query.format ?? "") else {
                let names = ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw ExportRequestError("Choose a format: one of \(names).")
            }
            let filter = try ExportFilter.parse(
                from: query.from, to: query.to, participants: (query.participant ?? []).filter { !$0.isEmpty })
            let export = try await StudyExport.prepare(ExportRequest(study: study.slug, format: format, filter: filter), on: request.db)
            let researcherID = try request.researcher.id
            request.logger.info("Export of study “\(study.slug)” as \(format.rawValue) by researcher \(researcherID)")
            return export.response(logger: request.logger)
        } catch let problem as ExportRequestError {
            return try await render(request, study: study, query: query, problem: problem.message, status: .badRequest)
        }
    }

    private func render(_ request: Request, study: Study, query: DownloadQuery, problem: String?, status: HTTPStatus) async throws -> Response {
        let chosen = Set(query.participant ?? [])
        let participants = try await Participant.query(on: request.db)
            .filter(\.$study.$id == study.requireID()).with(\.$invitee).sort(\.$registeredAt).all()
            .map { participant in
                let id = participant.id!.uuidString.lowercased()
                let label = "\(participant.invitee?.code ?? "open") · \(id.prefix(8))"
                return ExportPage.Choice(value: id, label: label, selected: chosen.contains(id))
            }
        let selectedFormat = query.format ?? ExportFormat.csv.rawValue
        let formats = Self.formatLabels.map { format, label in
            ExportPage.Choice(value: format.rawValue, label: label, selected: format.rawValue == selectedFormat)
        }
        return try await request.page("export", ExportPage(
            chrome: PageChrome(request, title: "Export · \(study.name)", study: study), formats: formats,
            participants: participants, hasParticipants: !participants.isEmpty, from: query.from ?? "", to: query.to ?? "", problem: problem), status: status)
    }
}

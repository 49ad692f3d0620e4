import Fluent
import MomentaryCore
import Vapor

/// `/studies/:slug/export`: a form choosing format, dates and participants, and the streamed
/// download it submits to. Downloads are GET requests (they change nothing), so a link can be
/// bookmarked or fetched with a session cookie from a script.
struct ExportRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.export, use: form)
        routes.get(SiteRoute.exportDownload, use: download)
    }

    struct ExportPage: Encodable {
        let chrome: PageChrome
        let formats: [SelectChoice]
        let participants: [SelectChoice]
        let hasParticipants: Bool
        /// "Every survey" first, then the study's surveys; the wide table needs one of them.
        let surveys: [SelectChoice]
        /// A wide table of each survey, for the quick links.
        let wideLinks: [SelectChoice]
        let from: String
        let to: String
        let bom: Bool
        let problem: String?
        /// The stream download's own form: its participants, streams and dates, kept when refused.
        let streamParticipants: [SelectChoice]
        let streams: [SelectChoice]
        let streamFrom: String
        let streamTo: String
        let streamProblem: String?
    }

    static let formatLabels: [(ExportFormat, String)] = [
        (.long, "Long CSV: one row per answer"),
        (.wide, "Wide CSV of one survey: one row per response, one column per question"),
        (.beeps, "Beeps CSV: one row per beep, for compliance"),
        (.messages, "Messages CSV: every message between the researchers and the participants"),
        (.codebook, "Codebook CSV: every question and option"),
        (.context, "Context CSV: one row per response with its sensed context"),
        (.xlsx, "Excel workbook: answers, a wide sheet per survey, context, environment, beeps and codebook"),
        (.json, "JSON: responses with answers and context"),
        (.kmz, "Map (KMZ, for Google Earth): one placemark per response with a location"),
        (.ics, "Calendar (iCalendar): one event per response"),
        (.archive, "Whole study (ZIP): all of the above and the photos"),
    ]

    /// The query a download is asked with; the form posts back the same names.
    struct DownloadQuery: Content {
        var format: String?
        var from: String?
        var to: String?
        var participant: [String]?
        var bom: String?
        var survey: String?

        static let names: Set<String> = ["format", "from", "to", "participant", "participant[]", "bom", "survey"]

        /// The export these values ask for in `format`; refused with the reason a person can act on.
        func exportRequest(study: String, format name: String?) throws -> ExportRequest {
            guard let format = ExportFormat(name: name ?? "") else {
                throw ExportRequestError("Choose a format: one of \(ExportFormat.names).")
            }
            let filter = try ExportFilter.parse(from: from, to: to, participants: (participant ?? []).filter { !$0.isEmpty })
            return ExportRequest(study: study, format: format, filter: filter, byteOrderMark: bom == "yes",
                                 survey: survey.flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    func form(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .exportResponses)
        return try await render(request, study: study, query: DownloadQuery(), problem: nil, status: .ok)
    }

    func download(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .exportResponses)
        let query = try request.query.decode(DownloadQuery.self)
        do {
            let exportRequest = try query.exportRequest(study: study.slug, format: query.format)
            let export = try await StudyExport.prepare(
                exportRequest, on: request.db, photosIn: request.application.momentaryConfiguration.dataDirectory)
            let researcherID = try request.researcher.id
            request.logger.info("Export of study “\(study.slug)” as \(exportRequest.format.rawValue) by researcher \(researcherID)")
            return export.response(logger: request.logger)
        } catch let problem as ExportRequestError {
            return try await render(request, study: study, query: query, problem: problem.message, status: .badRequest)
        }
    }

    /// The page, with `query` and `problem` in the study export's form, or `streamQuery` and
    /// `streamProblem` in the stream download's.
    func render(
        _ request: Request, study: Study, query: DownloadQuery, problem: String?, status: HTTPStatus,
        streamQuery: StreamDownloadRoutes.Query = .init(), streamProblem: String? = nil
    ) async throws -> Response {
        let all = try await Participant.query(on: request.db)
            .filter(\.$study.$id == study.requireID()).sort(\.$registeredAt).all()
        func choices(_ chosen: Set<String>) throws -> [SelectChoice] {
            try all.map { participant in
                let id = try participant.requireID().uuidString.lowercased()
                let label = "\(participant.label ?? "–") · \(id.prefix(8))"
                return SelectChoice(value: id, label: label, selected: chosen.contains(id))
            }
        }
        let participants = try choices(Set(query.participant ?? []))
        let studySurveys = try await Survey.query(on: request.db).filter(\.$study.$id == study.requireID()).sort(\.$position).all()
        let surveys = [SelectChoice(value: "", label: "Every survey (the wide table: the only beep survey)", selected: (query.survey ?? "").isEmpty)]
            + studySurveys.map { SelectChoice(value: $0.name, label: $0.name, selected: query.survey == $0.name) }
        let base = SiteRoute.exportDownload.path(study.slug)
        let wideLinks = studySurveys.map { survey in
            var components = URLComponents()
            components.queryItems = [URLQueryItem(name: "format", value: "wide"), URLQueryItem(name: "survey", value: survey.name)]
            return SelectChoice(value: base + (components.string ?? ""), label: "wide CSV of “\(survey.name)”", selected: false)
        }
        let chosenStreams = Set(streamQuery.stream ?? [])
        let selectedFormat = query.format.flatMap(ExportFormat.init(name:)) ?? .long
        let formats = Self.formatLabels.map { format, label in
            SelectChoice(value: format.rawValue, label: label, selected: format == selectedFormat)
        }
        return try await request.page("export", ExportPage(
            chrome: PageChrome(request, title: "Export · \(study.name)", study: study), formats: formats,
            participants: participants, hasParticipants: !participants.isEmpty, surveys: surveys, wideLinks: wideLinks, from: query.from ?? "", to: query.to ?? "",
            bom: query.bom == "yes", problem: problem,
            streamParticipants: try choices(Set(streamQuery.participant ?? [])),
            streams: PassiveStream.allCases.map { SelectChoice(value: $0.rawValue, label: $0.rawValue, selected: chosenStreams.contains($0.rawValue)) },
            streamFrom: streamQuery.from ?? "", streamTo: streamQuery.to ?? "", streamProblem: streamProblem), status: status)
    }
}

import Fluent
import Vapor

/// `/studies/:slug/end`: archiving a study (it stops; its data stays and exports keep working),
/// reopening it, and deleting it for good after typing its slug.
struct StudyEndRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.studyEnd, use: show)
        routes.post(SiteRoute.archiveStudy, use: archive)
        routes.post(SiteRoute.deleteStudy, use: delete)
    }

    struct EndPage: Encodable {
        let chrome: PageChrome
        let name: String
        let slug: String
        /// When it was archived, in the study's zone; nil while it runs.
        let archivedAt: String?
        let participants: Int
        let responses: Int
        let canArchive: Bool
        let canDelete: Bool
        let archiveProblem: String?
        let deleteProblem: String?
    }

    func show(request: Request) async throws -> Response {
        try await render(request, try await request.study(requiring: .viewStudies))
    }

    func archive(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .editStudies)
        struct Form: Content { var action: String?; var confirm: String? }
        let form = try request.content.decode(Form.self)
        switch form.action {
        case "archive":
            guard form.confirm == "yes" else {
                return try await render(request, study, archiveProblem: "Tick the box to confirm that the study is to stop.", status: .unprocessableEntity)
            }
            try await StudyLifecycle.archive(study, on: request.db, now: request.now)
        case "reopen":
            _ = try await StudyLifecycle.reopen(study, on: request.db, now: request.now)
        default:
            throw Abort(.badRequest, reason: "Say what to do: action=archive or action=reopen.")
        }
        return request.redirect(to: SiteRoute.studyEnd.path(study.slug) + "?saved=1")
    }

    func delete(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .deleteData)
        struct Form: Content { var slug: String? }
        let typed = (try request.content.decode(Form.self).slug ?? "").trimmingCharacters(in: .whitespaces)
        guard typed == study.slug else {
            let problem = typed.isEmpty ? "Type the study's slug, \(study.slug), to delete it." : "“\(typed.prefix(80))” is not this study's slug, \(study.slug); nothing was deleted."
            return try await render(request, study, deleteProblem: problem, status: .unprocessableEntity)
        }
        try await StudyLifecycle.delete(study, blobs: BlobStore(dataDirectory: request.application.momentaryConfiguration.dataDirectory), on: request.db)
        return request.redirect(to: SiteRoute.studies.path() + "?deleted=" + (study.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
    }

    private func render(
        _ request: Request, _ study: Study, archiveProblem: String? = nil, deleteProblem: String? = nil, status: HTTPStatus = .ok
    ) async throws -> Response {
        let researcher = try request.researcher
        let studyID = try study.requireID()
        return try await request.page("study-end", EndPage(
            chrome: PageChrome(request, title: "Archive or delete · \(study.name)", study: study,
                               notice: study.archivedAt == nil ? "The study runs again." : "The study is archived."),
            name: study.name, slug: study.slug, archivedAt: study.archivedAt.map { WebFormat.studyDateTime($0, in: study.zone) },
            participants: try await Participant.query(on: request.db).filter(\.$study.$id == studyID).count(),
            responses: try await SurveyResponse.query(on: request.db).filter(\.$study.$id == studyID).count(),
            canArchive: researcher.may(.editStudies), canDelete: researcher.may(.deleteData),
            archiveProblem: archiveProblem, deleteProblem: deleteProblem), status: status)
    }
}

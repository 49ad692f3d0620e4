import Fluent
import MomentaryCore
import Vapor

/// A survey's saved versions: the list, any version with its preview and its changes from
/// another, restoring one (saved again as the newest version, so history is never rewritten),
/// and taking a survey out of use or back.
struct SurveyVersionRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.surveyVersions, use: list)
        routes.get(SiteRoute.surveyVersion, use: show)
        routes.post(SiteRoute.restoreSurveyVersion, use: restore)
        routes.post(SiteRoute.surveyActive, use: setActive)
    }

    struct VersionListPage: Encodable {
        let chrome: PageChrome
        let surveyID: String
        let name: String
        let rows: [Row]
        struct Row: Encodable {
            let version: Int
            let savedAt: String
            let author: String
            let questions: String
            let isCurrent: Bool
        }
    }

    func list(request: Request) async throws -> Response {
        let (study, survey) = try await request.studySurvey()
        let versions = try await SurveyVersion.query(on: request.db).filter(\.$survey.$id == survey.requireID())
            .with(\.$author).sort(\.$version, .descending).all()
        return try await request.page("survey-versions", VersionListPage(
            chrome: PageChrome(request, title: "Versions of \(survey.name) · \(study.name)", study: study),
            surveyID: try survey.requireID().uuidString, name: survey.name,
            rows: versions.map { version in
                .init(version: version.version, savedAt: WebFormat.studyDateTime(version.createdAt, in: study.zone), author: Self.author(of: version),
                      questions: (try? SurveyCatalog.document(of: version)).map { "\($0.content.count)" } ?? "—",
                      isCurrent: version.version == survey.currentVersion)
            }))
    }

    struct VersionPage: Encodable {
        let chrome: PageChrome
        let surveyID: String
        let name: String
        let version: Int
        let isCurrent: Bool
        let savedAt: String
        let author: String
        let document: String
        let problems: [String]
        /// The version compared with, and every version it could be compared with.
        let against: Int?
        let others: [Int]
        let compared: Bool
        let identical: Bool
        let changes: [ChangeRow]
        let tooLargeToCompare: Bool

        /// One line of the comparison as the table shows it.
        struct ChangeRow: Encodable {
            let change: String
            let oldNumber: String
            let newNumber: String
            let marker: String
            let text: String

            init(_ line: LineDiff.Line) {
                change = line.change.rawValue
                oldNumber = line.oldNumber.map(String.init) ?? ""
                newNumber = line.newNumber.map(String.init) ?? ""
                marker = switch line.change {
                case .added: "+"
                case .removed: "−"
                case .same, .skipped: ""
                }
                text = line.text
            }
        }
    }

    func show(request: Request) async throws -> Response {
        let (study, survey) = try await request.studySurvey()
        return try await render(request, study, survey, problems: [])
    }

    func restore(request: Request) async throws -> Response {
        let (study, survey) = try await request.studySurvey()
        let version = try await requestedVersion(request, of: survey)
        guard version.version != survey.currentVersion else {
            return request.redirect(to: SiteRoute.survey.path(study.slug, try survey.requireID()))
        }
        // A version saved under older rules is checked again, as if it were typed in the editor.
        let problems: [String]
        do throws(SurveyFormatError) {
            problems = try SurveyDocument(jsonData: Data(version.document.utf8)).problems().map(\.message)
        } catch {
            problems = ["The document cannot be read: \(error.message)"]
        }
        guard problems.isEmpty else {
            return try await render(request, study, survey, problems: problems, status: .unprocessableEntity)
        }
        try await SurveyStore.saveVersion(
            of: survey, document: version.document, authorID: try request.researcher.id, on: request.db, now: request.now)
        return request.redirect(to: SiteRoute.survey.path(study.slug, try survey.requireID()) + "?saved=1&restored=\(version.version)")
    }

    /// Takes a survey out of use (no beeps ask it; a study whose only one it was cannot be
    /// joined) or back into use; fixed schedules are replanned either way.
    func setActive(request: Request) async throws -> Response {
        let (study, survey) = try await request.studySurvey()
        struct Form: Content { var active: String? }
        guard let active = ["true": true, "false": false][try request.content.decode(Form.self).active ?? ""] else {
            throw Abort(.badRequest, reason: "Say whether the survey is to be in use: active=true or active=false.")
        }
        if survey.active != active {
            survey.active = active
            survey.updatedAt = request.now
            try await survey.save(on: request.db)
            try await BeepPlanner.studyRulesChanged(try study.requireID(), on: request.db, now: request.now)
        }
        return request.redirect(to: SiteRoute.surveys.path(study.slug) + "?saved=1")
    }

    private func render(
        _ request: Request, _ study: Study, _ survey: Survey, problems: [String], status: HTTPStatus = .ok
    ) async throws -> Response {
        let version = try await requestedVersion(request, of: survey)
        let surveyID = try survey.requireID()
        let others = try await SurveyVersion.query(on: request.db).filter(\.$survey.$id == surveyID)
            .sort(\.$version).all(\.$version).filter { $0 != version.version }
        let against: Int?
        if let asked = request.query[String.self, at: "against"] {
            guard let number = Int(asked), others.contains(number) else {
                throw Abort(.badRequest, reason: "There is no other version \(asked) of this survey to compare with.")
            }
            against = number
        } else {
            against = others.last { $0 < version.version }
        }
        var changes: [LineDiff.Line]?
        if let against, let other = try await SurveyCatalog.version(against, of: surveyID, on: request.db) {
            changes = LineDiff.lines(
                from: SurveyEditorRoutes.pretty(other.document), to: SurveyEditorRoutes.pretty(version.document))
        }
        _ = try await version.$author.get(on: request.db)
        return try await request.page("survey-version", VersionPage(
            chrome: PageChrome(request, title: "\(survey.name) version \(version.version) · \(study.name)", study: study),
            surveyID: surveyID.uuidString, name: survey.name, version: version.version,
            isCurrent: version.version == survey.currentVersion, savedAt: WebFormat.studyDateTime(version.createdAt, in: study.zone),
            author: Self.author(of: version), document: SurveyEditorRoutes.pretty(version.document),
            problems: problems,
            against: against, others: others, compared: changes != nil,
            identical: changes?.allSatisfy { $0.change == .skipped } ?? false,
            changes: (changes ?? []).map(VersionPage.ChangeRow.init),
            tooLargeToCompare: against != nil && changes == nil), status: status)
    }

    private func requestedVersion(_ request: Request, of survey: Survey) async throws -> SurveyVersion {
        guard let number = request.parameters.get("version", as: Int.self),
              let version = try await SurveyCatalog.version(number, of: try survey.requireID(), on: request.db) else {
            throw Abort(.notFound, reason: "This survey has no such version.")
        }
        return version
    }

    /// Who saved a version whose author is loaded; "—" for versions saved by import or the demo.
    private static func author(of version: SurveyVersion) -> String {
        version.author?.email ?? "—"
    }
}

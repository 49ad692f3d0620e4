import Fluent
import MomentaryCore
import Vapor

/// `/studies/:slug/surveys`: the survey JSON editor. A valid document is saved as a new version;
/// an invalid one is shown again with every problem MomentaryCore finds, naming the question.
struct SurveyEditorRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.surveys, use: list)
        routes.post(SiteRoute.surveys, use: create)
        routes.get(SiteRoute.survey, use: edit)
        routes.post(SiteRoute.survey, use: save)
    }

    struct SurveyListPage: Encodable {
        let chrome: PageChrome
        let surveys: [Row]
        let problem: String?
        let name: String
        /// What stops participants from answering, when a deactivation left no survey for beeps.
        let blocking: [String]
        struct Row: Encodable {
            let id: String
            let name: String
            let kind: String
            let version: Int
            let active: Bool
        }
    }

    func list(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .editStudies)
        return try await renderList(request, study: study, problem: nil, name: "")
    }

    private func renderList(_ request: Request, study: Study, problem: String?, name: String, status: HTTPStatus = .ok) async throws -> Response {
        let surveys = try await Survey.query(on: request.db).filter(\.$study.$id == study.requireID()).sort(\.$position).all()
        let readiness = try await StudyReadiness.check(study, on: request.db)
        return try await request.page("surveys", SurveyListPage(
            chrome: PageChrome(request, title: "Surveys · \(study.name)", study: study),
            surveys: try surveys.map {
                .init(id: try $0.requireID().uuidString, name: $0.name, kind: $0.kind.rawValue, version: $0.currentVersion, active: $0.active)
            },
            problem: problem, name: name, blocking: readiness.blocking), status: status)
    }

    /// Adds a survey to the study, starting from the example document of its kind (a working
    /// survey to edit rather than a blank page), and opens it in the editor.
    func create(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .editStudies)
        struct Form: Content {
            var name: String?
            var kind: String?
        }
        let form = try request.content.decode(Form.self)
        let name = (form.name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard let kind = Survey.Kind(rawValue: form.kind ?? "") else {
            return try await renderList(
                request, study: study, problem: "Choose whether the survey is answered at registration or at each beep.", name: name,
                status: .unprocessableEntity)
        }
        let starter = kind == .registration ? SampleSurveys.registration : SampleSurveys.experienceSampling
        do {
            let survey = try await SurveyStore.add(
                kind: kind, name: name, document: try SurveyStore.text(of: starter), toStudy: try study.requireID(),
                authorID: try request.researcher.id, on: request.db, now: request.now)
            return request.redirect(to: SiteRoute.survey.path(study.slug, try survey.requireID()))
        } catch let refusal as SurveySetRules.Refusal {
            return try await renderList(request, study: study, problem: refusal.description, name: name, status: .unprocessableEntity)
        }
    }

    struct SurveyEditorPage: Encodable {
        let chrome: PageChrome
        let surveyID: String
        let name: String
        let version: Int
        let document: String
        let problems: [String]
        /// Problems of the saved version under today's rules (a question id from before ids had to
        /// be plain names): shown above the questions, as the next change must fix them.
        let standing: [String]
        /// A move the rules refused, with why.
        let refusal: String?
        let refusalProblems: [String]
        let questions: [QuestionSummary]
        /// The question types the builder can add.
        let questionTypes: [String]
    }

    func edit(request: Request) async throws -> Response {
        let (study, survey) = try await request.studySurvey()
        return try await Self.renderSaved(study, survey, on: request)
    }

    /// The page with the saved version in the editor, and a refused change's problems, if any.
    static func renderSaved(
        _ study: Study, _ survey: Survey, refusal: String? = nil, problems: [String] = [], on request: Request
    ) async throws -> Response {
        let current = try await SurveyVersion.query(on: request.db)
            .filter(\.$survey.$id == survey.requireID()).filter(\.$version == survey.currentVersion).first()
        return try await render(
            study, survey, text: pretty(current?.document ?? "{}"), problems: [], refusal: refusal, refusalProblems: problems,
            on: request, status: refusal == nil ? .ok : .unprocessableEntity)
    }

    func save(request: Request) async throws -> Response {
        let (study, survey) = try await request.studySurvey()
        struct Form: Content { var document: String }
        let form = try request.content.decode(Form.self)
        let problems: [String]
        var parsed: SurveyDocument?
        do throws(SurveyFormatError) {
            let document = try SurveyDocument(jsonData: Data(form.document.utf8))
            parsed = document
            problems = document.problems().map(\.message)
        } catch {
            problems = ["The document cannot be read: \(error.message)"]
        }
        guard let document = parsed, problems.isEmpty else {
            return try await Self.render(study, survey, text: form.document, problems: problems, on: request, status: .unprocessableEntity)
        }
        try await SurveyStore.saveVersion(
            of: survey, document: try SurveyStore.text(of: document), authorID: try request.researcher.id, on: request.db, now: request.now)
        return request.redirect(to: SiteRoute.survey.path(study.slug, try survey.requireID()) + "?saved=1")
    }

    private static func render(
        _ study: Study, _ survey: Survey, text: String, problems: [String], refusal: String? = nil, refusalProblems: [String] = [],
        on request: Request, status: HTTPStatus = .ok
    ) async throws -> Response {
        let document = try? SurveyDocument(jsonData: Data(text.utf8))
        let saved = try await SurveyCatalog.document(of: try await SurveyCatalog.currentVersion(of: survey, on: request.db))
        let notice = if let restored = request.query[Int.self, at: "restored"] {
            "Version \(restored) restored as version \(survey.currentVersion)."
        } else {
            "Saved as version \(survey.currentVersion)."
        }
        return try await request.page("survey-editor", SurveyEditorPage(
            chrome: PageChrome(request, title: "\(survey.name) · \(study.name)", study: study, notice: notice),
            surveyID: try survey.requireID().uuidString, name: survey.name, version: survey.currentVersion,
            document: text, problems: problems, standing: saved.problems().map(\.message),
            refusal: refusal, refusalProblems: refusalProblems,
            questions: QuestionSummary.all(of: document?.localized(for: [], languages: study.languages)),
            questionTypes: QuestionType.allCases.map(\.rawValue)), status: status)
    }

    /// Stored documents have sorted keys on one line; the editor shows them indented.
    static func pretty(_ text: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return text }
        return String(decoding: data, as: UTF8.self)
    }
}

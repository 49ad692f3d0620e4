import Fluent
import MomentaryCore
import Vapor

/// The survey builder: add, edit, move and delete one question at a time through forms. Each
/// change is a new version of the document, checked by the same rules as the JSON editor; a form
/// names the version it was opened on, so a change made meanwhile by someone else is never
/// overwritten.
struct QuestionBuilderRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.newQuestion, use: newQuestion)
        routes.post(SiteRoute.questions, use: add)
        routes.get(SiteRoute.question, use: edit)
        routes.post(SiteRoute.question, use: save)
        routes.post(SiteRoute.moveQuestion, use: move)
        routes.get(SiteRoute.deleteQuestion, use: confirmDelete)
        routes.post(SiteRoute.deleteQuestion, use: delete)
    }

    /// The page that asks before a question is deleted, and says why it cannot be when later
    /// questions show or hide by its answer.
    struct DeletePage: Encodable {
        let chrome: PageChrome
        let surveyID: String
        let surveyName: String
        let number: Int
        let id: String
        let text: String
        let version: Int
        let dependents: [String]
        let problems: [String]
    }

    struct QuestionPage: Encodable {
        let chrome: PageChrome
        let surveyID: String
        let surveyName: String
        let heading: String
        let action: String
        let type: String
        let form: QuestionForm
        /// The texts in the study's other languages, beside the default language's.
        let translations: [QuestionTranslationFields]
        let problems: [String]
        /// Earlier questions a condition may compare with.
        let earlier: [Earlier]
        let operators: [String]
        let textFieldTypes: [String]
        /// The question has a condition the form cannot show (not, or more than two comparisons): it is kept as it is.
        let keepsCondition: Bool
        let hasOptions, hasRange, hasSliderLabels, hasTextFieldType, hasTokens, hasDuration: Bool
        /// The longest question text and option or label (`TextLimits`), shown beside their fields.
        let questionLimit = TextLimits.questionText
        let optionLimit = TextLimits.optionText
        let questionLimitText = TextLimits.grouped(TextLimits.questionText)
        let idRule = QuestionIdentifier.rule
        let idLimit = QuestionIdentifier.maximumLength

        struct Earlier: Encodable {
            let id: String
            let label: String
        }
    }

    /// The current document of the survey, with its version.
    private func current(_ request: Request) async throws -> (Study, Survey, SurveyDocument) {
        let (study, survey) = try await request.studySurvey()
        let version = try await SurveyCatalog.currentVersion(of: survey, on: request.db)
        return (study, survey, try SurveyCatalog.document(of: version))
    }

    func newQuestion(request: Request) async throws -> Response {
        let (study, survey, document) = try await current(request)
        let type = try Self.type(request.query[String.self, at: "type"])
        return try await render(request, study, survey, document, type: type, number: nil,
                                form: QuestionForm(version: survey.currentVersion, languages: study.languages), problems: [])
    }

    func edit(request: Request) async throws -> Response {
        let (study, survey, document) = try await current(request)
        let number = try Self.number(request, in: document)
        let question = document.content[number - 1]
        return try await render(request, study, survey, document, type: question.type, number: number,
                                form: QuestionForm(question, version: survey.currentVersion, languages: study.languages), problems: [])
    }

    func add(request: Request) async throws -> Response {
        let (study, survey, document) = try await current(request)
        let type = try Self.type(request.query[String.self, at: "type"])
        let form = try Self.postedForm(request, study)
        try Self.requireUnchanged(survey, version: form.version)
        return try await change(request, study, survey, document, type: type, number: nil, form: form) { document, question in
            document.content.append(question)
        }
    }

    func save(request: Request) async throws -> Response {
        let (study, survey, document) = try await current(request)
        let form = try Self.postedForm(request, study)
        try Self.requireUnchanged(survey, version: form.version)
        let number = try Self.number(request, in: document)
        return try await change(request, study, survey, document, type: document.content[number - 1].type, number: number, form: form) {
            document, question in document.content[number - 1] = question
        }
    }

    func move(request: Request) async throws -> Response {
        let (study, survey, document) = try await current(request)
        struct Form: Content { var version: Int?; var direction: String? }
        let form = try request.content.decode(Form.self)
        try Self.requireUnchanged(survey, version: form.version)
        let number = try Self.number(request, in: document)
        let other = form.direction == "up" ? number - 1 : form.direction == "down" ? number + 1 : 0
        guard document.content.indices.contains(other - 1) else {
            throw Abort(.badRequest, reason: "Question \(number) cannot move \(form.direction ?? "there"): move it up or down within the survey.")
        }
        var moved = document
        moved.content.swapAt(number - 1, other - 1)
        return try await saveWhole(request, study, survey, moved, refusal: "Not moved")
    }

    func confirmDelete(request: Request) async throws -> Response {
        let (study, survey, document) = try await current(request)
        return try await renderDelete(request, study, survey, document, number: try Self.number(request, in: document), problems: [])
    }

    func delete(request: Request) async throws -> Response {
        let (study, survey, document) = try await current(request)
        struct Form: Content { var version: Int? }
        try Self.requireUnchanged(survey, version: try request.content.decode(Form.self).version)
        let number = try Self.number(request, in: document)
        var remaining = document
        remaining.content.remove(at: number - 1)
        let problems = remaining.problems().map(\.message)
        guard problems.isEmpty else {
            return try await renderDelete(request, study, survey, document, number: number, problems: problems, status: .unprocessableEntity)
        }
        return try await store(remaining, request, study, survey)
    }

    private func renderDelete(
        _ request: Request, _ study: Study, _ survey: Survey, _ document: SurveyDocument, number: Int, problems: [String],
        status: HTTPStatus = .ok
    ) async throws -> Response {
        let question = document.content[number - 1]
        let dependents = document.content.enumerated().compactMap { position, other -> String? in
            guard other.displayIf?.referencedQuestionIDs.contains(question.id) == true else { return nil }
            return SurveyMessages.capitalizingFirst(SurveyQuestion.label(position: position, id: other.id))
        }
        return try await request.page("survey-question-delete", DeletePage(
            chrome: PageChrome(request, title: "Delete question \(number) · \(survey.name)", study: study),
            surveyID: try survey.requireID().uuidString, surveyName: survey.name, number: number, id: question.id,
            text: question.text.resolved(for: [], languages: study.languages), version: survey.currentVersion,
            dependents: dependents, problems: problems), status: status)
    }

    /// Applies the form's question to the document and saves it, or shows the form again with
    /// every problem the rules find.
    private func change(
        _ request: Request, _ study: Study, _ survey: Survey, _ document: SurveyDocument, type: QuestionType, number: Int?,
        form: QuestionForm, apply: (inout SurveyDocument, SurveyQuestion) -> Void
    ) async throws -> Response {
        var problems: [String]
        var changed: SurveyDocument?
        do throws(SurveyFormatError) {
            let kept = number.map { document.content[$0 - 1] }
            let position = (number ?? document.content.count + 1) - 1
            let question = try SurveyQuestion(json: try form.json(type: type, keeping: kept), position: position)
            var candidate = document
            apply(&candidate, question)
            changed = candidate
            problems = candidate.problems().map(\.message)
        } catch {
            problems = [error.message]
        }
        if let changed, problems.isEmpty {
            return try await store(changed, request, study, survey)
        }
        return try await render(request, study, survey, document, type: type, number: number, form: form, problems: problems,
                                status: .unprocessableEntity)
    }

    /// Saves a reordered document, or shows the survey's page again with what the move would
    /// break (a condition that would point at a later question).
    private func saveWhole(
        _ request: Request, _ study: Study, _ survey: Survey, _ document: SurveyDocument, refusal: String
    ) async throws -> Response {
        let problems = document.problems().map(\.message)
        guard problems.isEmpty else {
            return try await SurveyEditorRoutes.renderSaved(study, survey, refusal: refusal, problems: problems, on: request)
        }
        return try await store(document, request, study, survey)
    }

    private func store(_ document: SurveyDocument, _ request: Request, _ study: Study, _ survey: Survey) async throws -> Response {
        // The document was read at the survey's current version, which the form was opened on.
        try await SurveyStore.saveVersion(
            of: survey, document: try SurveyStore.text(of: document), authorID: try request.researcher.id,
            basedOn: survey.currentVersion, on: request.db, now: request.now)
        return request.redirect(to: SiteRoute.survey.path(study.slug, try survey.requireID()) + "?saved=1")
    }

    private func render(
        _ request: Request, _ study: Study, _ survey: Survey, _ document: SurveyDocument, type: QuestionType, number: Int?,
        form: QuestionForm, problems: [String], status: HTTPStatus = .ok
    ) async throws -> Response {
        let surveyID = try survey.requireID().uuidString
        let earlier = document.content.prefix((number ?? document.content.count + 1) - 1)
            .filter(\.canBeCompared)
            .map { QuestionPage.Earlier(id: $0.id, label: "\($0.id): \($0.text.resolved(for: [], languages: study.languages))") }
        let keepsCondition = number.flatMap { document.content[$0 - 1].displayIf }.map { QuestionForm.shown($0) == nil } ?? false
        var form = form
        // A new free-text question starts as single-line text, as docs/surveys.md says, not as the list's first kind.
        if type == .freeResponse, form.textFieldType == nil { form.textFieldType = TextFieldType.singleLineText.rawValue }
        return try await request.page("survey-question", QuestionPage(
            chrome: PageChrome(request, title: "\(number.map { "Question \($0)" } ?? "New question") · \(survey.name)", study: study),
            surveyID: surveyID, surveyName: survey.name,
            heading: number.map { "Question \($0) of \(survey.name)" } ?? "A new \(type.rawValue) question for \(survey.name)",
            action: number.map { SiteRoute.question.path(study.slug, surveyID, $0) }
                ?? SiteRoute.questions.path(study.slug, surveyID) + "?type=\(type.rawValue)", type: type.rawValue, form: form,
            translations: form.translations, problems: problems, earlier: Array(earlier), operators: ComparisonOperator.allCases.map(\.rawValue),
            textFieldTypes: TextFieldType.allCases.map(\.rawValue), keepsCondition: keepsCondition,
            hasOptions: [.radioButton, .checkbox, .people].contains(type), hasRange: [.slider, .number].contains(type),
            hasSliderLabels: type == .slider, hasTextFieldType: type == .freeResponse, hasTokens: type == .tokens,
            hasDuration: type == .audioRecording), status: status)
    }

    /// The posted form with the texts of the study's other languages.
    private static func postedForm(_ request: Request, _ study: Study) throws -> QuestionForm {
        var form = try request.content.decode(QuestionForm.self)
        form.languages = study.languages
        form.translations = QuestionTranslationFields.read(try request.content.decode([String: String].self), languages: study.languages)
        return form
    }

    private static func type(_ name: String?) throws -> QuestionType {
        guard let name, let type = QuestionType(rawValue: name) else {
            let known = QuestionType.allCases.map(\.rawValue).joined(separator: ", ")
            throw Abort(.badRequest, reason: "Choose the kind of question to add (one of \(known)).")
        }
        return type
    }

    /// The question number in the path, counting from 1 as the editor shows it.
    private static func number(_ request: Request, in document: SurveyDocument) throws -> Int {
        guard let number = request.parameters.get("number", as: Int.self), document.content.indices.contains(number - 1) else {
            throw Abort(.notFound, reason: "The survey has no such question.")
        }
        return number
    }

    /// Refuses a form opened on an older version at once, before checking what it asks for; the
    /// save itself checks again under the survey's lock (`SurveyStore.saveVersion(basedOn:)`).
    private static func requireUnchanged(_ survey: Survey, version: Int?) throws {
        guard version == survey.currentVersion else { throw SurveyStore.changedSince(current: survey.currentVersion) }
    }
}

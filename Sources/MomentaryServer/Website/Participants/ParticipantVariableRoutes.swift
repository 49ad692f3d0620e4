import Fluent
import MomentaryCore
import Vapor

/// Participant variables on the website: the study's definitions (`/participant-variables`, a
/// row each, with an empty row to add one), and one participant's values
/// (`/participants/:id/variables`). Piped texts and conditions use them (`{{var:id}}`, `var:id`).
struct ParticipantVariableRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.participantVariableDefinitions, use: showDefinitions)
        routes.post(SiteRoute.participantVariableDefinitions, use: saveDefinitions)
        routes.get(SiteRoute.participantVariables, use: showValues)
        routes.post(SiteRoute.participantVariables, use: saveValues)
    }

    struct DefinitionsPage: Encodable {
        let chrome: PageChrome
        let rows: [Row]
        /// The registration survey's questions a variable may come from.
        let registrationQuestions: [String]
        let canEdit: Bool
        let problems: [String]
        struct Row: Encodable {
            let index: Int
            /// Counting from 1, as labels name the row.
            let number: Int
            let id: String
            let label: String
            let isText: Bool
            let isNumber: Bool
            let from: String
            /// The row names a question the registration survey does not have.
            let fromUnknown: Bool
        }
    }

    /// A field of the participant's values page (`ParticipantFieldsPage`).
    struct ValueField: Encodable { let index: Int; let id: String; let label: String; let isNumber: Bool; let value: String }

    func showDefinitions(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewParticipants)
        return try await renderDefinitions(request, study, definitions: study.participantVariables)
    }

    func saveDefinitions(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .editStudies)
        let form = try request.content.decode([String: String].self)
        // Rows are numbered from 0; a row whose id and label are both empty is dropped (removed, or the blank one).
        var definitions: [ParticipantVariableDefinition] = []
        var index = 0
        while let id = form["id\(index)"] {
            let label = form["label\(index)"] ?? ""
            defer { index += 1 }
            if id.trimmingCharacters(in: .whitespaces).isEmpty && label.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let from = (form["from\(index)"] ?? "").trimmingCharacters(in: .whitespaces)
            definitions.append(ParticipantVariableDefinition(
                id: id.trimmingCharacters(in: .whitespaces), type: form["type\(index)"] == "number" ? .number : .text,
                label: label.trimmingCharacters(in: .whitespaces), fromRegistration: from.isEmpty ? nil : from))
        }
        let surveys = try await StudyReadiness.surveySet(of: study, on: request.db)
        // Removing a variable a survey uses is refused as the readiness check would block the study.
        let problems = SurveySetRules.variableProblems(surveys, definitions: definitions)
        guard problems.isEmpty else {
            return try await renderDefinitions(request, study, definitions: definitions, problems: problems)
        }
        study.participantVariables = definitions
        study.updatedAt = request.now
        try await study.save(on: request.db)
        return request.redirect(to: SiteRoute.participantVariableDefinitions.path(study.slug) + "?saved=1")
    }

    func showValues(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewParticipants)
        let participant = try await request.participant(in: study)
        let values = participant.variables
        return try await renderValues(request, study, participant, texts: study.participantVariables.map { Self.text(values[$0.id]) })
    }

    func saveValues(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .setParticipantVariables)
        let participant = try await request.participant(in: study)
        let form = try request.content.decode([String: String].self)
        let definitions = study.participantVariables
        let texts = definitions.indices.map { form["value\($0)"] ?? "" }
        do {
            let changes = Dictionary(uniqueKeysWithValues: zip(definitions.map(\.id), texts.map(JSONValue.string)))
            try await ParticipantVariableStore.set(changes, of: participant, in: study, on: request.db)
        } catch let refusal as ParticipantVariables.Refusal {
            return try await renderValues(request, study, participant, texts: texts, problem: refusal.description)
        }
        return request.redirect(to: SiteRoute.participantVariables.path(study.slug, try participant.requireID().uuidString) + "?saved=1")
    }

    /// A value as a form shows it.
    static func text(_ value: JSONValue?) -> String {
        switch value {
        case .string(let text)?: text
        case .number(let number)?: SurveyMessages.number(number)
        default: ""
        }
    }

    private func renderDefinitions(
        _ request: Request, _ study: Study, definitions: [ParticipantVariableDefinition], problems: [String] = []
    ) async throws -> Response {
        let surveys = try await StudyReadiness.surveySet(of: study, on: request.db)
        let registration = surveys.first { $0.kind == .registration && $0.active }?.document.content.map(\.id) ?? []
        let rows = (definitions + [ParticipantVariableDefinition(id: "", type: .text, label: "")]).enumerated().map { index, definition in
            DefinitionsPage.Row(
                index: index, number: index + 1, id: definition.id, label: definition.label, isText: definition.type == .text,
                isNumber: definition.type == .number, from: definition.fromRegistration ?? "",
                fromUnknown: definition.fromRegistration.map { !registration.contains($0) } ?? false)
        }
        return try await request.page("participant-variable-definitions", DefinitionsPage(
            chrome: PageChrome(request, title: "Participant variables · \(study.name)", study: study),
            rows: rows, registrationQuestions: registration, canEdit: try request.researcher.may(.editStudies), problems: problems),
            status: problems.isEmpty ? .ok : .unprocessableEntity)
    }

    private func renderValues(
        _ request: Request, _ study: Study, _ participant: Participant, texts: [String], problem: String? = nil
    ) async throws -> Response {
        let fields = study.participantVariables.enumerated().map { index, definition in
            ValueField(index: index, id: definition.id, label: definition.label, isNumber: definition.type == .number, value: texts[index])
        }
        return try await ParticipantFieldsPage.render(
            "participant-variables", request, study, participant, heading: "Variables",
            notice: "Saved. Surveys sent from now on use the new values.", fields: fields, edit: .setParticipantVariables, problem: problem)
    }
}

import Fluent
import MomentaryCore
import Vapor

/// Participant dates on the website: the study's names (`/participant-dates`, one per line), and
/// one participant's dates (`/participants/:id/dates`). Fixed rules may count days from them
/// (`{"relative": {"to": "Baseline", "day": 14, "time": "09:00"}}`); changing a date replans the
/// participant at once.
struct ParticipantDateRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.participantDateNames, use: showNames)
        routes.post(SiteRoute.participantDateNames, use: saveNames)
        routes.get(SiteRoute.participantDates, use: showDates)
        routes.post(SiteRoute.participantDates, use: saveDates)
    }

    struct NamesPage: Encodable {
        let chrome: PageChrome
        let names: String
        /// Each name with the surveys whose schedules count from it.
        let uses: [Use]
        let canEdit: Bool
        let problem: String?
        struct Use: Encodable { let name: String; let surveys: String }
    }

    /// A field of the participant's dates page (`ParticipantFieldsPage`).
    struct DateField: Encodable { let index: Int; let name: String; let value: String; let isSet: Bool }

    func showNames(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewParticipants)
        return try await renderNames(request, study, text: study.participantDateNames.joined(separator: "\n"))
    }

    func saveNames(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .editStudies)
        struct Form: Content { var names: String? }
        let text = try request.content.decode(Form.self).names ?? ""
        let names = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if let problem = ParticipantDates.problems(names).first {
            return try await renderNames(request, study, text: text, problem: problem.prefix(1).uppercased() + problem.dropFirst() + ".")
        }
        let used = try await usesByName(of: study, on: request.db)
        if let (name, surveys) = used.first(where: { !names.contains($0.key) }) {
            return try await renderNames(request, study, text: text,
                problem: "“\(name)” cannot be removed: the schedule of \(surveys.joined(separator: ", ")) counts from it. Change that schedule first.")
        }
        study.participantDateNames = names
        study.updatedAt = request.now
        try await study.save(on: request.db)
        return request.redirect(to: SiteRoute.participantDateNames.path(study.slug) + "?saved=1")
    }

    func showDates(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewParticipants)
        let participant = try await request.participant(in: study)
        let dates = participant.namedDates
        return try await renderDates(request, study, participant, values: study.participantDateNames.map { dates[$0]?.description ?? "" })
    }

    func saveDates(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .changeParticipantStatus)
        let participant = try await request.participant(in: study)
        let form = try request.content.decode([String: String].self)
        let names = study.participantDateNames
        let values = names.indices.map { form["date\($0)"] ?? "" }
        let dates: [String: LocalDate]
        do {
            dates = try ParticipantDateService.applying(Dictionary(uniqueKeysWithValues: zip(names, values)), to: participant, study: study)
        } catch let refusal as ParticipantDateService.Refusal {
            return try await renderDates(request, study, participant, values: values, problem: refusal.description)
        }
        try await ParticipantDateService.set(dates, of: participant, on: request.db, now: request.now)
        return request.redirect(to: SiteRoute.participantDates.path(study.slug, try participant.requireID().uuidString) + "?saved=1")
    }

    /// The surveys whose fixed schedules count from each name.
    private func usesByName(of study: Study, on db: any Database) async throws -> [String: [String]] {
        let studyID = try study.requireID()
        let surveys = try await Survey.query(on: db).filter(\.$study.$id == studyID).sort(\.$position).all()
        let schedules = try await Schedule.query(on: db).filter(\.$study.$id == studyID).all()
        var uses = [String: [String]]()
        for survey in surveys {
            guard let schedule = schedules.first(where: { $0.$survey.id == survey.id }),
                  let document = try? FixedScheduleDocument.parse(Data(schedule.document.utf8)) else { continue }
            for name in ParticipantDates.names(usedBy: document) { uses[name, default: []].append("“\(survey.name)”") }
        }
        return uses
    }

    private func renderNames(_ request: Request, _ study: Study, text: String, problem: String? = nil) async throws -> Response {
        let uses = try await usesByName(of: study, on: request.db)
        return try await request.page("participant-date-names", NamesPage(
            chrome: PageChrome(request, title: "Participant dates · \(study.name)", study: study),
            names: text, uses: uses.keys.sorted().map { NamesPage.Use(name: $0, surveys: uses[$0, default: []].joined(separator: ", ")) },
            canEdit: try request.researcher.may(.editStudies), problem: problem), status: problem == nil ? .ok : .unprocessableEntity)
    }

    private func renderDates(
        _ request: Request, _ study: Study, _ participant: Participant, values: [String], problem: String? = nil
    ) async throws -> Response {
        let fields = study.participantDateNames.enumerated().map { DateField(index: $0.offset, name: $0.element, value: values[$0.offset], isSet: !values[$0.offset].isEmpty) }
        return try await ParticipantFieldsPage.render(
            "participant-dates", request, study, participant, heading: "Dates",
            notice: "Saved. The participant's beeps follow the new dates from now on.", fields: fields, edit: .changeParticipantStatus, problem: problem)
    }
}

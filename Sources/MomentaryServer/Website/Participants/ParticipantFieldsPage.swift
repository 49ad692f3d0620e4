import Vapor

/// One participant's page of the values a study keeps per participant, a field each: their dates
/// (`ParticipantDateRoutes`) and their variables (`ParticipantVariableRoutes`). The pages differ in
/// their fields and what saving does; the frame around the fields is this one.
struct ParticipantFieldsPage<Field: Encodable>: Encodable {
    let chrome: PageChrome
    let participant: String
    let participantID: String
    let fields: [Field]
    let canEdit: Bool
    let problem: String?

    /// The page titled “`heading` of <participant> · <study>”, with a form for researchers who
    /// may `edit`; answered 422 with `problem` when a save was refused. `notice` is shown after
    /// a save.
    static func render(
        _ template: String, _ request: Request, _ study: Study, _ participant: Participant,
        heading: String, notice: String, fields: [Field], edit: Permission, problem: String?
    ) async throws -> Response {
        try await request.page(template, ParticipantFieldsPage(
            chrome: PageChrome(request, title: "\(heading) of \(participant.label ?? "a participant") · \(study.name)", study: study,
                               notice: notice),
            participant: participant.label ?? "—", participantID: try participant.requireID().uuidString, fields: fields,
            canEdit: try request.researcher.may(edit), problem: problem), status: problem == nil ? .ok : .unprocessableEntity)
    }
}

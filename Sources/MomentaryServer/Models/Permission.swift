/// What a researcher may do. Roles grant sets of these; every page and action checks one on the server.
enum Permission: String, CaseIterable, Codable, Sendable {
    case viewResponses = "responses.view"
    case exportResponses = "responses.export"
    case viewInvitees = "invitees.view"
    case createInvitees = "invitees.create"
    case restrictInvitees = "invitees.restrict"
    case viewParticipants = "participants.view"
    case changeParticipantStatus = "participants.status"
    case sendTestBeep = "participants.beep"
    case messageParticipants = "participants.message"
    case setParticipantVariables = "participants.variables"
    case reassignArms = "participants.arm"
    case viewStudies = "studies.view"
    case editStudies = "studies.edit"
    case deleteData = "data.delete"
    case manageResearchers = "researchers.manage"
    case manageRoles = "roles.manage"
}

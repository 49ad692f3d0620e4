/// Names of permissions as the website shows them.
extension Permission {
    var title: String {
        switch self {
        case .viewResponses: "View responses"
        case .exportResponses: "Export responses"
        case .viewInvitees: "View invitees"
        case .createInvitees: "Create invitees"
        case .restrictInvitees: "Restrict invitees"
        case .viewParticipants: "View participants"
        case .changeParticipantStatus: "Change participant status"
        case .sendTestBeep: "Send test beeps"
        case .messageParticipants: "Write to participants"
        case .setParticipantVariables: "Set participant variables"
        case .reassignArms: "Reassign participants to another arm"
        case .viewStudies: "View study settings"
        case .editStudies: "Create and edit studies, surveys and schedules"
        case .deleteData: "Delete data"
        case .manageResearchers: "Manage researchers"
        case .manageRoles: "Manage roles"
        }
    }
}

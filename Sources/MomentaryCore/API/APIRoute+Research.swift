import Foundation

/// The research API: what researchers' scripts call with `Authorization: Bearer <token>` (a
/// personal access token), not a participant's credentials. Kept apart from `all`, whose routes
/// the participant client calls.
extension APIRoute {
    /// The studies the token reaches.
    public static let researchStudies = APIRoute(.get, "research/studies")
    /// A study's document, as `momentary studies export` writes it.
    public static let researchStudy = APIRoute(.get, "research/studies/{slug}")
    /// A study's data in one export format, streamed, byte for byte as `momentary export` writes it.
    public static let researchExport = APIRoute(.get, "research/studies/{slug}/exports/{format}")
    /// New invitation codes.
    public static let researchInvitees = APIRoute(.post, "research/studies/{slug}/invitees")

    /// A beep to one participant now, asked for by another system.
    public static let researchParticipantBeeps = APIRoute(.post, "research/studies/{slug}/participants/{label}/beeps")

    /// The study's participants, beeps and responses as JSON, a page at a time (`after`, `limit`).
    public static let researchParticipants = APIRoute(.get, "research/studies/{slug}/participants")
    public static let researchBeeps = APIRoute(.get, "research/studies/{slug}/beeps")
    public static let researchResponses = APIRoute(.get, "research/studies/{slug}/responses")

    /// A participant's status (participating, restricted, withdrawn) and named dates.
    public static let researchParticipantStatus = APIRoute(.post, "research/studies/{slug}/participants/{label}/status")
    public static let researchParticipantDates = APIRoute(.post, "research/studies/{slug}/participants/{label}/dates")
    /// A participant's variables (`participant_variables`).
    public static let researchParticipantVariables = APIRoute(.post, "research/studies/{slug}/participants/{label}/variables")

    /// Deleting what a participant sent, and erasing a participant (the website's two buttons).
    public static let researchParticipantDeleteData = APIRoute(.post, "research/studies/{slug}/participants/{label}/delete-data")
    public static let researchParticipantErase = APIRoute(.post, "research/studies/{slug}/participants/{label}/erase")
    /// Restricting an invitation code: its participant stops taking part.
    public static let researchRestrictInvitee = APIRoute(.post, "research/studies/{slug}/invitees/{code}/restrict")

    /// Replaces a study's settings, surveys and schedules by a study document.
    public static let researchUpdateStudy = APIRoute(.put, "research/studies/{slug}")

    /// A message to one participant or to those a participants filter lists.
    public static let researchMessages = APIRoute(.post, "research/studies/{slug}/messages")

    public static let research: [APIRoute] = [
        researchStudies, researchStudy, researchExport, researchInvitees, researchParticipantBeeps,
        researchParticipants, researchBeeps, researchResponses, researchParticipantStatus, researchParticipantDates, researchParticipantVariables,
        researchMessages, researchUpdateStudy, researchParticipantDeleteData, researchParticipantErase, researchRestrictInvitee,
    ]
}

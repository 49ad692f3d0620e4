import Fluent

/// The schema's migrations in the order they run. Append only: a landed migration is never edited.
enum Migrations {
    static let all: [any Migration] = [
        M001_CreateRoles(),
        M002_CreateResearchers(),
        M003_CreateStudies(),
        M004_CreateSurveys(),
        M005_CreateSchedules(),
        M006_CreateInvitees(),
        M007_CreateParticipants(),
        M008_CreateBeeps(),
        M009_CreateResponses(),
        M010_CreateResponseContexts(),
        M011_CreateBlobs(),
        M012_SeedBuiltInRoles(),
        M013_CreateWebSessions(),
        M014_AddParticipantNextPlanAt(),
        M015_IndexBeepsByParticipantStatus(),
        M016_AddResponseSurveyTimings(),
        M017_AddParticipantLabels(),
        M018_AddParticipantListIndex(),
        M019_AddStudyEnd(),
        M020_AddParticipantFeedback(),
        M021_CreatePublicStatistics(),
        M022_CreateAuditEvents(),
        M023_CreateSignInFailures(),
        M024_AddParticipantErasedAt(),
        M025_CreateStudyTallies(),
        M026_AddParticipantLastAnsweredAt(),
        M027_IndexParticipantsByRegistrationAndID(),
        M030_CreateStreamBatches(),
        M031_CreateStreamHours(),
        M032_CreateEnvironmentReadings(),
        M033_AddEnvironmentColumns(),
        M034_IndexBeepsByParticipantStatusScheduled(),
    ]
}

import Fluent
import Foundation
import MomentaryCore

/// What a study still lacks before participants can take part. Registration refuses while
/// anything `blocking` is missing (a participant could join but never answer), the join page
/// says the study is not open, and the study's page lists every item for the researchers.
struct StudyReadiness: Sendable, Equatable {
    /// Missing parts that make taking part impossible.
    var blocking: [String] = []
    /// Missing parts that stop new participants from joining but harm nobody who has.
    var warnings: [String] = []

    var isReady: Bool { blocking.isEmpty }
    var missing: [String] { blocking + warnings }

    static func check(_ study: Study, on db: any Database) async throws -> StudyReadiness {
        var readiness = StudyReadiness()
        let studyID = try study.requireID()
        if study.archivedAt != nil {
            readiness.blocking.append("It is archived: it takes no new participants and sends no beeps. Reopen it in Settings to run it again.")
        }
        if try await SurveyCatalog.defaultExperienceSurvey(of: studyID, on: db) == nil {
            readiness.blocking.append("It has no active survey to answer at a beep: add one under Surveys.")
        }
        if study.consentText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            readiness.blocking.append("It has no consent text: participants must be told what they agree to (Settings).")
        }
        let surveys = try await surveySet(of: study, on: db)
        readiness.blocking += translationGaps(study, surveys: surveys)
        readiness.blocking += SurveySetRules.followUpProblems(surveys)
        readiness.blocking += SurveySetRules.variableProblems(surveys, definitions: study.participantVariables)
        // A survey renamed or switched off after the arms named it would leave an arm without it.
        readiness.blocking += try await study.arms?.problems(of: study, on: db).map { "Its arms have a problem (Arms): \($0)." } ?? []
        if study.invitationOnly,
           try await Invitee.query(on: db).filter(\.$study.$id == studyID).filter(\.$status == .invited).count() == 0 {
            readiness.warnings.append("It is by invitation only and has no unused invitation codes: create some under Invitees.")
        }
        return readiness
    }

    /// The study's surveys, each active one with its current document (an inactive one, or one
    /// that cannot be read, with an empty document: nobody answers it).
    static func surveySet(of study: Study, on db: any Database) async throws -> [SurveySetRules.Member] {
        let surveys = try await Survey.query(on: db).filter(\.$study.$id == study.requireID()).sort(\.$position).all()
        var members: [SurveySetRules.Member] = []
        for survey in surveys {
            var document = SurveyDocument(content: [])
            if survey.active, let current = try? SurveyCatalog.document(of: try await SurveyCatalog.currentVersion(of: survey, on: db)) {
                document = current
            }
            members.append(.init(name: survey.name, kind: survey.kind, active: survey.active, document: document))
        }
        return members
    }

    /// Every participant-facing text of the study and its active surveys that lacks one of the
    /// study's languages, each named; the same rule study import applies.
    static func translationGaps(_ study: Study, surveys: [SurveySetRules.Member]) -> [String] {
        let languages = study.languages
        var gaps = study.translationProblems.map { "A translation is missing: \($0)." }
        for survey in surveys where survey.active && !survey.document.content.isEmpty {
            gaps += survey.document.translationProblems(languages: languages, includingUnknown: false).map { "A translation is missing in survey “\(survey.name)”: \($0.message)" }
        }
        return gaps
    }
}

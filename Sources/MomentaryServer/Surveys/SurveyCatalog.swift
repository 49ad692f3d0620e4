import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// Finding a study's surveys and their versions, decoded.
enum SurveyCatalog {
    /// The registration survey of a study, if it has an active one.
    static func registrationSurvey(of studyID: UUID, on db: any Database) async throws -> Survey? {
        try await Survey.query(on: db)
            .filter(\.$study.$id == studyID).filter(\.$kind == .registration).filter(\.$active == true)
            .sort(\.$position).first()
    }

    /// The survey answered when no particular one is named: the study's first active ESM survey.
    static func defaultExperienceSurvey(of studyID: UUID, on db: any Database) async throws -> Survey? {
        guard let id = try await defaultExperienceSurveyID(of: studyID, on: db) else { return nil }
        return try await Survey.find(id, on: db)
    }

    /// The survey a participant volunteers: the default experience survey, or in a study with
    /// arms the first of their arm's surveys.
    static func volunteerSurvey(of participantID: UUID, studyID: UUID, on db: any Database) async throws -> Survey? {
        guard let study = try await Study.find(studyID, on: db), let arms = study.arms,
              let arm = arms.arm(named: try await Participant.find(participantID, on: db)?.arm), arm.surveys != nil else {
            return try await defaultExperienceSurvey(of: studyID, on: db)
        }
        return try await Survey.query(on: db)
            .filter(\.$study.$id == studyID).filter(\.$kind == .esm).filter(\.$active == true).sort(\.$position).all()
            .first { arm.includesSurvey($0.name) }
    }

    /// The survey a beep asks: its own, or the study's default experience survey when the beep
    /// names none (or its survey is gone).
    static func survey(for beep: Beep, studyID: UUID, on db: any Database) async throws -> Survey {
        if let surveyID = beep.$survey.id, let survey = try await Survey.find(surveyID, on: db) {
            return survey
        }
        guard let survey = try await defaultExperienceSurvey(of: studyID, on: db) else {
            throw APIError.notFound("Your study has no survey to answer.")
        }
        return survey
    }

    /// The default experience survey's id alone, read by a plain query.
    static func defaultExperienceSurveyID(of studyID: UUID, on db: any Database) async throws -> UUID? {
        let sql = db.sql
        struct Row: Decodable { let id: UUID }
        return try await sql.raw(defaultExperienceSurveyIDQuery(ofStudy: SQLBind(studyID))).first(decoding: Row.self)?.id
    }

    /// The default experience survey's id as a query, of the study `study` gives (a bound id, or
    /// a column of a larger query: ingest reads it together with the uploader's credentials).
    static func defaultExperienceSurveyIDQuery(ofStudy study: any SQLExpression) -> SQLQueryString {
        """
        SELECT id FROM surveys
        WHERE study_id = \(study) AND kind = \(bind: Survey.Kind.esm.rawValue) AND active = \(bind: true)
        ORDER BY position LIMIT 1
        """
    }

    /// The current version of the survey participants answer (the default experience survey),
    /// whose sliders feedback charts, public statistics and calendar titles summarise.
    /// Its texts are in the language chosen for `preferences` (none: the study's default).
    static func answeredDocument(of study: Study, for preferences: [String] = [], on db: any Database) async throws -> SurveyDocument? {
        guard let survey = try await defaultExperienceSurvey(of: try study.requireID(), on: db) else { return nil }
        return (try? document(of: try await currentVersion(of: survey, on: db)))?.localized(for: preferences, languages: study.languages)
    }

    static func version(_ number: Int, of surveyID: UUID, on db: any Database) async throws -> SurveyVersion? {
        try await SurveyVersion.query(on: db)
            .filter(\.$survey.$id == surveyID).filter(\.$version == number).first()
    }

    static func currentVersion(of survey: Survey, on db: any Database) async throws -> SurveyVersion {
        guard let version = try await version(survey.currentVersion, of: try survey.requireID(), on: db) else {
            throw APIError(.internalServerError, code: "internal_error", "The survey “\(survey.name)” has no saved version.")
        }
        return version
    }

    static func document(of version: SurveyVersion) throws -> SurveyDocument {
        try SurveyDocument(jsonData: Data(version.document.utf8))
    }

    /// The survey as an app is sent it: its current version, every text in `language`, with the
    /// participant's values of the variables it names (none before registration).
    static func delivery(
        of survey: Survey, beepID: UUID?, in language: TextLanguage, for participantID: UUID? = nil, on db: any Database
    ) async throws -> SurveyDelivery {
        let version = try await currentVersion(of: survey, on: db)
        let document = try document(of: version)
        var variables: [String: JSONValue] = [:]
        if let participantID, !document.variableNames.isEmpty, let participant = try await Participant.find(participantID, on: db) {
            variables = ParticipantVariableStore.delivered(for: document, participant: participant)
        }
        var delivered = document.localized(for: language.preferences, languages: language.languages)
        // Which answers bring a follow-up is the study's design, not something to show participants.
        delivered.extraFields[SurveyDocument.followUpsField] = nil
        return SurveyDelivery(
            surveyID: try survey.requireID(), version: version.version, beepID: beepID, document: delivered.json, variables: variables)
    }
}

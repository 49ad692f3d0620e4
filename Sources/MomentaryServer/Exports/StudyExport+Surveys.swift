import Fluent
import Foundation
import SQLKit

/// Surveys in exports: `--survey` (or the website's and the API's `survey`) limits the responses
/// to one survey, and the wide table is always one survey's: registration answers and each beep
/// survey have questions of their own, and one table for all would mix them.
extension StudyExport {
    /// A survey with responses in this export and the versions they answered.
    struct AnsweredSurvey {
        let id: UUID
        let name: String
        let versions: Set<Int>
    }

    /// The request's survey, named by name or id; for the wide table without one, the study's only
    /// survey answered at beeps. Sets the filter's survey and returns its name.
    static func resolveSurvey(_ request: inout ExportRequest, studyID: UUID, on db: any Database) async throws -> String? {
        let surveys = try await Survey.query(on: db).filter(\.$study.$id == studyID).sort(\.$position).all()
        let names = surveys.map { "“\($0.name)”" }.joined(separator: ", ")
        guard let wanted = request.survey?.trimmingCharacters(in: .whitespaces), !wanted.isEmpty else {
            guard request.format == .wide else { return nil }
            let beepSurveys = surveys.filter { $0.kind == .esm }
            guard beepSurveys.count == 1, let only = beepSurveys.first else {
                throw ExportRequestError("The wide table holds one survey's responses; choose one with --survey (one of \(names)).")
            }
            request.filter.surveyID = try only.requireID()
            return only.name
        }
        guard request.format != .archive else {
            throw ExportRequestError("The archive holds every survey, with a wide table for each; leave out the survey.")
        }
        guard let survey = surveys.first(where: { $0.name == wanted || $0.id?.uuidString.lowercased() == wanted.lowercased() }) else {
            throw ExportRequestError("The study has no survey “\(wanted.prefix(80))”; its surveys are \(names).")
        }
        request.filter.surveyID = try survey.requireID()
        return survey.name
    }

    /// The surveys with responses in this export (within the filter), in the study's order.
    func answeredSurveys() async throws -> [AnsweredSurvey] {
        struct Row: Decodable {
            let surveyId: UUID
            let surveyVersion: Int
            enum CodingKeys: String, CodingKey { case surveyId = "survey_id", surveyVersion = "survey_version" }
        }
        var query: SQLQueryString = "SELECT DISTINCT r.survey_id, r.survey_version FROM responses r WHERE r.study_id = \(bind: studyID)"
        query += request.filter.conditions(time: "r.submitted_at", participant: "r.participant_id", responseID: "r.id", survey: "r.survey_id")
        let rows = try await db.sql.raw(query).all(decoding: Row.self)
        let versions = Dictionary(grouping: rows, by: \.surveyId).mapValues { Set($0.map(\.surveyVersion)) }
        let surveys = try await Survey.query(on: db).filter(\.$study.$id == studyID).sort(\.$position).all()
        return surveys.compactMap { survey in
            guard let id = survey.id, let used = versions[id] else { return nil }
            return AnsweredSurvey(id: id, name: survey.name, versions: used)
        }
    }
}

extension ExportFormat {
    /// `<study>-responses-wide-<survey>.csv`: each survey's wide table has a file of its own.
    public static func wideFileName(study slug: String, survey: String) -> String {
        "\(slug)-responses-wide-\(namePart(survey)).csv"
    }

    /// A file name's part for a survey: lower-case letters, digits and `-`.
    static func namePart(_ survey: String) -> String {
        let folded = survey.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        let parts = folded.unicodeScalars.split { !(("a"..."z").contains($0) || ("0"..."9").contains($0)) }
        let joined = parts.map { String(String.UnicodeScalarView($0)) }.joined(separator: "-")
        return joined.isEmpty ? "survey" : String(joined.prefix(40))
    }
}

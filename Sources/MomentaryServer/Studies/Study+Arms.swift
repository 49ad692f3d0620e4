import Fluent
import Foundation
import MomentaryCore

extension Study {
    /// The study's arms, nil without any (or if the stored value no longer reads: the Arms page,
    /// import and the research API check it before saving).
    var arms: StudyArms? {
        armsJSON.flatMap { try? JSONDecoder().decode(StudyArms.self, from: Data($0.utf8)) }
    }

    func setArms(_ arms: StudyArms?) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        armsJSON = arms.flatMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) }
    }
}

extension StudyArms {
    /// The arms checked against the study as it is stored: its surveys, fixed schedules,
    /// registration questions and languages.
    func problems(of study: Study, on db: any Database) async throws -> [String] {
        let studyID = try study.requireID()
        let surveys = try await Survey.query(on: db).filter(\.$study.$id == studyID).all()
        let scheduled = Set(try await Schedule.query(on: db).filter(\.$study.$id == studyID).all().map { $0.$survey.id })
        var questionIDs: [String] = []
        if let registration = try await SurveyCatalog.registrationSurvey(of: studyID, on: db),
           let document = try? SurveyCatalog.document(of: try await SurveyCatalog.currentVersion(of: registration, on: db)) {
            questionIDs = document.content.map(\.id)
        }
        let facts = surveys.map {
            SurveyFacts(name: $0.name, isBeepSurvey: $0.kind == .esm && $0.active, hasFixedSchedule: $0.id.map(scheduled.contains) ?? false)
        }
        return problems(surveys: facts, registrationQuestionIDs: questionIDs, languages: study.languages)
    }
}

import Fluent
import Foundation
import MomentaryCore

/// What a device-scheduled (old-style) study sends to the app at registration: every ESM survey
/// with its current version, and the fixed schedule rules of each.
enum DeviceSchedule {
    static func surveys(of studyID: UUID, in language: TextLanguage, on db: any Database) async throws -> JSONValue {
        var items: [JSONValue] = []
        for survey in try await activeSurveys(of: studyID, on: db) {
            let delivery = try await SurveyCatalog.delivery(of: survey, beepID: nil, in: language, on: db)
            items.append(.object([
                "survey_id": .string(delivery.surveyID.uuidString.lowercased()),
                "version": .number(Double(delivery.version)),
                "document": delivery.document,
            ]))
        }
        return .array(items)
    }

    static func rules(of studyID: UUID, on db: any Database) async throws -> JSONValue {
        var items: [JSONValue] = []
        for schedule in try await Schedule.query(on: db).filter(\.$study.$id == studyID).all() {
            let document = try JSONDecoder().decode(JSONValue.self, from: Data(schedule.document.utf8))
            items.append(.object(["survey_id": .string(schedule.$survey.id.uuidString.lowercased()), "rules": document]))
        }
        return .array(items)
    }

    private static func activeSurveys(of studyID: UUID, on db: any Database) async throws -> [Survey] {
        try await Survey.query(on: db)
            .filter(\.$study.$id == studyID).filter(\.$kind == .esm).filter(\.$active == true)
            .sort(\.$position).all()
    }
}

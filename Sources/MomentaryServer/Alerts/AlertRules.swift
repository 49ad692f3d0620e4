import Fluent
import Foundation
import MomentaryCore

/// Making a study's alert rules: every rule of what a rule may say lives here, for the website
/// (and any later API or command).
enum AlertRules {
    static let maximumPerStudy = 20
    static let quietDays = 1...60
    static let thresholdPercent = 1...100

    struct Refusal: Error, CustomStringConvertible, Equatable {
        let description: String
    }

    /// What a researcher asks for; which fields count depends on the kind.
    struct Draft: Sendable {
        var kind: AlertRule.Kind
        var days: Int?
        var surveyName: String?
        var condition: String?
        var includeAnswers = false
        var thresholdPercent: Int?
        var recipients: [UUID]
    }

    static func create(_ draft: Draft, in study: Study, by email: String, on db: any Database, now: Date) async throws -> AlertRule {
        let studyID = try study.requireID()
        guard try await AlertRule.query(on: db).filter(\.$study.$id == studyID).count() < maximumPerStudy else {
            throw Refusal(description: "A study has at most \(maximumPerStudy) alert rules; delete one first.")
        }
        let rule = AlertRule()
        rule.$study.id = studyID
        rule.kind = draft.kind
        rule.includeAnswers = false
        rule.createdAt = now
        rule.createdBy = email
        switch draft.kind {
        case .quiet:
            guard let days = draft.days, quietDays.contains(days) else {
                throw Refusal(description: "Days without an answer: a whole number from \(quietDays.lowerBound) to \(quietDays.upperBound).")
            }
            rule.days = days
        case .response:
            let (survey, text) = try await checkedCondition(draft, in: studyID, on: db)
            rule.$survey.id = try survey.requireID()
            rule.condition = text
            rule.includeAnswers = draft.includeAnswers
            rule.checkedThrough = now
        case .failures:
            guard let threshold = draft.thresholdPercent, thresholdPercent.contains(threshold) else {
                throw Refusal(description: "Failed beeps: a percentage from \(thresholdPercent.lowerBound) to \(thresholdPercent.upperBound).")
            }
            rule.thresholdPercent = threshold
        case .digest:
            break
        case .replies:
            rule.includeAnswers = draft.includeAnswers
            rule.checkedThrough = now
        }
        rule.recipients = try await checkedRecipients(draft.recipients, of: study, on: db)
        try await rule.create(on: db)
        return rule
    }

    /// The survey named and the condition's JSON, checked against that survey's current version
    /// by the code that checks `display_if`.
    private static func checkedCondition(_ draft: Draft, in studyID: UUID, on db: any Database) async throws -> (Survey, String) {
        guard let name = draft.surveyName, !name.isEmpty,
              let survey = try await Survey.query(on: db).filter(\.$study.$id == studyID).filter(\.$name == name).filter(\.$kind == .esm).first() else {
            throw Refusal(description: "Survey: choose one of the study's beep surveys.")
        }
        let text = (draft.condition ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard let json = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            throw Refusal(description: "Condition: write it as display_if is written, such as {\">=\": [\"phq9_item9\", 2]}.")
        }
        let document = try SurveyCatalog.document(of: try await SurveyCatalog.currentVersion(of: survey, on: db))
        if let issue = document.answerConditionIssues(DisplayCondition(json: json)).first {
            throw Refusal(description: "Condition: it \(issue).")
        }
        return (survey, text)
    }

    /// The recipients, each a researcher who may see the study; at least one.
    private static func checkedRecipients(_ ids: [UUID], of study: Study, on db: any Database) async throws -> [UUID] {
        let unique = Array(Set(ids)).sorted { $0.uuidString < $1.uuidString }
        guard !unique.isEmpty else { throw Refusal(description: "Send to: choose at least one researcher of the study.") }
        for id in unique {
            guard let researcher = try await SignedInResearcher.load(id: id, on: db), researcher.canAccess(studyID: try study.requireID()) else {
                throw Refusal(description: "Send to: only researchers of this study can get its alerts.")
            }
        }
        return unique
    }

    /// The researchers who may get the study's alerts, for the form.
    static func possibleRecipients(of study: Study, on db: any Database) async throws -> [Researcher] {
        var result: [Researcher] = []
        for researcher in try await Researcher.query(on: db).filter(\.$disabled == false).sort(\.$email).all() {
            if let signedIn = try await SignedInResearcher.load(id: try researcher.requireID(), on: db), signedIn.canAccess(studyID: try study.requireID()) {
                result.append(researcher)
            }
        }
        return result
    }
}

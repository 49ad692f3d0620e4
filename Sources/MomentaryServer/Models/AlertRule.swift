import Fluent
import Foundation

/// One of a study's alert rules (`AlertRules`).
final class AlertRule: Model, @unchecked Sendable {
    static let schema = "alert_rules"

    enum Kind: String, Codable, Sendable, CaseIterable {
        /// A participating participant has not answered for `days` days.
        case quiet
        /// A response to `survey` meets `condition` (the `display_if` language); sent at once.
        case response
        /// More than `threshold_percent` of a day's beeps failed to be delivered.
        case failures
        /// Every morning, the day before's compliance.
        case digest
        /// A participant replied to the researchers' messages; sent at once.
        case replies
    }

    @ID(key: .id) var id: UUID?
    @Parent(key: "study_id") var study: Study
    @Field(key: "kind") var kind: Kind
    @OptionalField(key: "days") var days: Int?
    @OptionalParent(key: "survey_id") var survey: Survey?
    /// The condition's JSON, as typed.
    @OptionalField(key: "condition") var condition: String?
    /// Whether a response alert's email lists the answers (off by default: email is not a safe place for them).
    @Field(key: "include_answers") var includeAnswers: Bool
    @OptionalField(key: "threshold_percent") var thresholdPercent: Int?
    /// A JSON list of researcher ids.
    @Field(key: "recipients") var recipientsJSON: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "created_by") var createdBy: String?
    /// Responses received up to this time have been checked (response rules).
    @OptionalField(key: "checked_through") var checkedThrough: Date?

    init() {}

    var recipients: [UUID] {
        get { (try? JSONDecoder().decode([UUID].self, from: Data(recipientsJSON.utf8))) ?? [] }
        set { recipientsJSON = String(decoding: (try? JSONEncoder().encode(newValue)) ?? Data("[]".utf8), as: UTF8.self) }
    }
}

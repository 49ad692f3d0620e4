import Fluent
import Foundation

final class Participant: Model, @unchecked Sendable {
    static let schema = "participants"

    enum Status: String, Codable, Sendable, CaseIterable {
        case participating, restricted, withdrawn
    }

    @ID(key: .id) var id: UUID?
    @Parent(key: "study_id") var study: Study
    @OptionalParent(key: "invitee_id") var invitee: Invitee?
    /// The short public label researchers see: the invitation code, or a generated 5-character
    /// code in open studies; unique across the server (`PublicCodes`).
    @OptionalField(key: "label") var label: String?
    @Field(key: "secret_hash") var secretHash: String
    @Field(key: "status") var status: Status
    /// False once the push service reports the token unregistered; no beeps are planned or sent then.
    @Field(key: "active") var active: Bool
    @Field(key: "timezone") var timeZone: String
    /// One of the study's languages; texts the server sends this participant are in it (M043).
    @OptionalField(key: "language") var language: String?
    /// The randomised arm the participant is in now (M060); nil in a study without arms.
    @OptionalField(key: "arm") var arm: String?
    /// The participant's named dates (`ParticipantDates`), a JSON object; nil: none set.
    @OptionalField(key: "dates") var dates: String?
    /// The participant's variables by name (a JSON object; M062).
    @OptionalField(key: "variables") var variablesJSON: String?
    @Field(key: "beeps_per_day") var beepsPerDay: Int
    @Field(key: "signal_start_minutes") var signalStartMinutes: Int
    @Field(key: "signal_end_minutes") var signalEndMinutes: Int
    @OptionalField(key: "sound") var sound: String?
    @Field(key: "push_channel") var pushChannel: String
    @OptionalField(key: "push_token") var pushToken: String?
    /// Web Push subscription keys (JSON), when the channel is webpush.
    @OptionalField(key: "push_keys") var pushKeys: String?
    /// Last delivery outcome, for the researchers' channel-health column.
    @OptionalField(key: "push_health") var pushHealth: String?
    @OptionalField(key: "device_model") var deviceModel: String?
    @OptionalField(key: "device_os") var deviceOS: String?
    @OptionalField(key: "app_version") var appVersion: String?
    @Field(key: "registered_at") var registeredAt: Date
    /// Registration date in the participant's zone, `YYYY-MM-DD`: day 0 of relative schedules.
    @Field(key: "registered_local_date") var registeredLocalDate: String
    @OptionalField(key: "last_seen_at") var lastSeenAt: Date?
    /// The idempotency key of the registration that made this participant (M042).
    @OptionalField(key: "registration_key") var registrationKey: String?
    /// Last local date (`YYYY-MM-DD`) whose beeps the planner has computed.
    @OptionalField(key: "planned_through") var plannedThrough: String?
    @OptionalField(key: "download_token_hash") var downloadTokenHash: String?
    @OptionalField(key: "withdrawn_at") var withdrawnAt: Date?
    /// When researchers erased the participant but kept their beeps: the row identifies no one.
    @OptionalField(key: "erased_at") var erasedAt: Date?
    /// `tree`, `grass` or `weed`: whose pollen risk the app is shown (nil: grass, the default).
    @OptionalField(key: "pollen_sensitivity") var pollenSensitivity: String?
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

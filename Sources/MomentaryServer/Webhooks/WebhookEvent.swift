import Foundation

/// What a study's webhooks can be told of; the raw value is the `event` field of every delivery.
enum WebhookEvent: String, CaseIterable, Sendable, Codable {
    case participantJoined = "participant.joined"
    case responseStored = "response.stored"
    case beepExpired = "beep.expired"
    case participantWithdrawn = "participant.withdrawn"
    case messageReplied = "message.replied"

    /// The table of the row the event is about (each has `id` and `study_id`).
    var subjectTable: String {
        switch self {
        case .participantJoined, .participantWithdrawn: "participants"
        case .responseStored: "responses"
        case .beepExpired: "beeps"
        case .messageReplied: "messages"
        }
    }

    /// For the website's form.
    var explanation: String {
        switch self {
        case .participantJoined: "a participant joined"
        case .responseStored: "a response was stored (ids only, never the answers)"
        case .beepExpired: "a beep expired unanswered"
        case .participantWithdrawn: "a participant withdrew or was withdrawn"
        case .messageReplied: "a participant replied to the researchers' messages (ids only, never the text)"
        }
    }

    /// The events a webhook takes, as stored: ",a,b," so that one LIKE finds each.
    static func stored(_ events: [WebhookEvent]) -> String {
        "," + events.map(\.rawValue).sorted().joined(separator: ",") + ","
    }

    static func parse(stored text: String) -> [WebhookEvent] {
        text.split(separator: ",").compactMap { WebhookEvent(rawValue: String($0)) }
    }
}

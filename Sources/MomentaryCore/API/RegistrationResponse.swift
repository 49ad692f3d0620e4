import Foundation

/// Answer to a successful registration (201).
public struct RegistrationResponse: Codable, Sendable, Hashable {
    public var participantID: UUID
    /// The random 20-character secret; with `participantID` it forms the HTTP Basic credentials.
    /// Shown once: the server keeps only its hash.
    public var secret: String
    public var study: StudySummary
    /// Device-scheduled studies only: the fixed-schedule rules document the app turns into local
    /// notifications.
    public var schedule: JSONValue?
    /// Device-scheduled studies only: the survey documents the schedule refers to.
    public var surveys: JSONValue?

    public init(participantID: UUID, secret: String, study: StudySummary,
                schedule: JSONValue? = nil, surveys: JSONValue? = nil) {
        self.participantID = participantID
        self.secret = secret
        self.study = study
        self.schedule = schedule
        self.surveys = surveys
    }

    enum CodingKeys: String, CodingKey {
        case participantID = "participant_id"
        case secret, study, schedule, surveys
    }
}

public struct StudySummary: Codable, Sendable, Hashable {
    public var slug: String
    public var name: String
    public var scheduling: SchedulingStyle

    public init(slug: String, name: String, scheduling: SchedulingStyle) {
        self.slug = slug
        self.name = name
        self.scheduling = scheduling
    }
}

/// Who decides when to beep: the server (push notifications) or the app (local notifications from
/// the schedule sent at registration; Beiwe's "old-style" studies).
public enum SchedulingStyle: String, Codable, Sendable, Hashable, CaseIterable {
    case server
    case device
}

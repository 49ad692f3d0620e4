import Foundation

/// A study's randomised arms (`arms`, `allocation`, `show_arm_to_participants` of a study
/// document): which beep surveys, fixed schedules and random sampling apply to each arm, and how
/// a new participant is allocated to one at registration.
public struct StudyArms: Codable, Sendable, Equatable {
    public var arms: [StudyArm]
    public var allocation: ArmAllocationRule
    /// Whether participants are told their arm (`GET /api/v1/status`); absent: never.
    public var showArmToParticipants: Bool

    public init(arms: [StudyArm], allocation: ArmAllocationRule, showArmToParticipants: Bool = false) {
        self.arms = arms
        self.allocation = allocation
        self.showArmToParticipants = showArmToParticipants
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case arms, allocation
        case showArmToParticipants = "show_arm_to_participants"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        arms = try container.decode([StudyArm].self, forKey: .arms)
        allocation = try container.decode(ArmAllocationRule.self, forKey: .allocation)
        showArmToParticipants = try container.decodeIfPresent(Bool.self, forKey: .showArmToParticipants) ?? false
    }

    public func arm(named name: String?) -> StudyArm? {
        guard let name else { return nil }
        return arms.first { $0.name == name }
    }

    /// The keys each part reads, for the study document's refusal of unknown fields.
    public static let keys = CodingKeys.allCases.map(\.rawValue)
    public static let armKeys = StudyArm.CodingKeys.allCases.map(\.rawValue)
    public static let allocationKeys = ArmAllocationRule.CodingKeys.allCases.map(\.rawValue)
}

/// One arm: its name (exported as `arm`), its weight in the allocation, and what applies to it.
public struct StudyArm: Codable, Sendable, Equatable {
    public var name: String
    /// A whole number from 1 to 100: an arm of weight 2 gets twice the participants of weight 1.
    public var weight: Int
    /// The beep surveys participants of the arm are sent and may volunteer, by name; absent: all.
    /// The first of them in survey order is the one random beeps ask.
    public var surveys: [String]?
    /// Whether random sampling applies; absent: the study's `random_sampling`.
    public var randomSampling: Bool?
    /// The surveys whose fixed schedules apply, by name; absent: those of the arm's surveys.
    public var fixedSchedules: [String]?
    /// The beep notification's text for this arm; absent: the study's `alert_text`.
    public var alertText: LocalizedText?

    public init(name: String, weight: Int = 1, surveys: [String]? = nil, randomSampling: Bool? = nil,
                fixedSchedules: [String]? = nil, alertText: LocalizedText? = nil) {
        self.name = name
        self.weight = weight
        self.surveys = surveys
        self.randomSampling = randomSampling
        self.fixedSchedules = fixedSchedules
        self.alertText = alertText
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, weight, surveys
        case randomSampling = "random_sampling"
        case fixedSchedules = "fixed_schedules"
        case alertText = "alert_text"
    }

    /// Whether participants of the arm answer the beep survey `survey`.
    public func includesSurvey(_ survey: String) -> Bool {
        surveys?.contains(survey) ?? true
    }

    /// Whether the fixed schedule of the survey `survey` beeps participants of the arm.
    public func followsFixedSchedule(of survey: String) -> Bool {
        fixedSchedules?.contains(survey) ?? includesSurvey(survey)
    }
}

/// How participants are allocated: `simple` (each independently, by weight) or `blocked`
/// (permuted blocks of `block_size`, each holding every arm exactly in proportion to its weight),
/// per stratum of the registration answer `stratify_by` when given.
public struct ArmAllocationRule: Codable, Sendable, Equatable {
    public enum Method: String, Codable, Sendable, CaseIterable {
        case simple, blocked
    }

    public var method: Method
    public var blockSize: Int?
    /// A question of the registration survey; each distinct answer is a stratum with its own blocks.
    public var stratifyBy: String?

    public init(method: Method, blockSize: Int? = nil, stratifyBy: String? = nil) {
        self.method = method
        self.blockSize = blockSize
        self.stratifyBy = stratifyBy
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case method
        case blockSize = "block_size"
        case stratifyBy = "stratify_by"
    }
}

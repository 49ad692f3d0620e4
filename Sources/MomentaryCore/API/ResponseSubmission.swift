import Foundation

/// Body of `POST /api/v1/responses` (Mappiness `esm_answers`).
public struct ResponseSubmission: Codable, Sendable, Hashable {
    /// Chosen by the app when the response is queued and kept across retries: the server stores
    /// one response per participant and key, and answers a repeat with the first receipt.
    public var idempotencyKey: String
    /// The beep answered; absent for a volunteered response.
    public var beepID: UUID?
    /// The survey answered. Optional: the beep implies it; for a volunteered response it is the
    /// `survey_id` of `GET /survey`, and the server checks it when given.
    public var surveyID: UUID?
    /// The `version` of the survey delivery that was shown.
    public var surveyVersion: Int
    /// When the first question was shown.
    public var startedAt: Date
    public var submittedAt: Date
    /// In the order the questions were shown.
    public var answers: [SubmittedAnswer]
    public var context: ResponseContext
    /// Beiwe's timing events of the session that produced the answers, oldest first; optional.
    public var timings: [SurveyTiming]
    /// The survey's question ids in the order the app showed them, when it shuffled some
    /// (`randomize_groups`); optional.
    public var presentedOrder: [String]?

    public init(idempotencyKey: String, beepID: UUID? = nil, surveyID: UUID? = nil, surveyVersion: Int,
                startedAt: Date, submittedAt: Date, answers: [SubmittedAnswer],
                context: ResponseContext = ResponseContext(), timings: [SurveyTiming] = [], presentedOrder: [String]? = nil) {
        self.idempotencyKey = idempotencyKey
        self.beepID = beepID
        self.surveyID = surveyID
        self.surveyVersion = surveyVersion
        self.startedAt = startedAt
        self.submittedAt = submittedAt
        self.answers = answers
        self.context = context
        self.timings = timings
        self.presentedOrder = presentedOrder
    }

    enum CodingKeys: String, CodingKey {
        case idempotencyKey = "idempotency_key"
        case beepID = "beep_id"
        case surveyID = "survey_id"
        case surveyVersion = "survey_version"
        case startedAt = "started_at"
        case submittedAt = "submitted_at"
        case answers, context, timings
        case presentedOrder = "presented_order"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        idempotencyKey = try container.decode(String.self, forKey: .idempotencyKey)
        beepID = try container.decodeIfPresent(UUID.self, forKey: .beepID)
        surveyID = try container.decodeIfPresent(UUID.self, forKey: .surveyID)
        surveyVersion = try container.decode(Int.self, forKey: .surveyVersion)
        startedAt = try container.decode(Date.self, forKey: .startedAt)
        submittedAt = try container.decode(Date.self, forKey: .submittedAt)
        answers = try container.decode([SubmittedAnswer].self, forKey: .answers)
        context = try container.decodeOmittable(ResponseContext.self, forKey: .context) ?? ResponseContext()
        timings = try container.decodeOmittable([SurveyTiming].self, forKey: .timings) ?? []
        presentedOrder = try container.decodeIfPresent([String].self, forKey: .presentedOrder)
    }

    /// The largest request body a response may have (other API bodies: 256 KiB).
    public static let maximumBodyBytes = 2 << 20

    /// The most question ids `presented_order` may list.
    public static let maximumPresentedOrderCount = 1_000

    /// The longest idempotency key accepted (a UUID string is 36 characters).
    public static let maximumIdempotencyKeyLength = 128

    private static func isIdempotencyKeyCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", ":": true
        default: false
        }
    }

    /// The rule for every idempotency key of the API (responses, stream batches).
    public static func isValidIdempotencyKey(_ key: String) -> Bool {
        !key.isEmpty && key.count <= maximumIdempotencyKeyLength && key.unicodeScalars.allSatisfy(isIdempotencyKeyCharacter)
    }

    /// Structural rules; whether the answers fit the survey is for the server's survey validation.
    public func validate() throws(APIValidationError) {
        guard Self.isValidIdempotencyKey(idempotencyKey) else {
            throw APIValidationError(field: "idempotency_key",
                                     message: "The idempotency key must be 1–\(Self.maximumIdempotencyKeyLength) characters of letters, digits, '-', '_', '.' or ':'.")
        }
        guard surveyVersion >= 1 else {
            throw APIValidationError(field: "survey_version", message: "The survey version must be 1 or more.")
        }
        guard submittedAt >= startedAt else {
            throw APIValidationError(field: "submitted_at", message: "submitted_at must not be before started_at.")
        }
        var seen = Set<String>()
        for (index, answer) in answers.enumerated() where !seen.insert(answer.questionID).inserted {
            throw APIValidationError(field: "answers[\(index)].question_id",
                                     message: "Question “\(answer.questionID)” is answered more than once.")
        }
        try context.validate()
        guard timings.count <= SurveyTiming.maximumCount else {
            throw APIValidationError(field: "timings", message: "At most \(SurveyTiming.maximumCount) timing events may accompany a response.")
        }
        for (index, timing) in timings.enumerated() where (timing.questionID?.count ?? 0) > SurveyTiming.maximumQuestionIDLength {
            throw APIValidationError(field: "timings[\(index)].question_id", message: "A timing event's question_id must be at most \(SurveyTiming.maximumQuestionIDLength) characters.")
        }
        // Whether the order fits the survey is for the server's survey validation; this bounds its size.
        if let presentedOrder, presentedOrder.count > Self.maximumPresentedOrderCount
            || presentedOrder.contains(where: { $0.count > SurveyTiming.maximumQuestionIDLength }) {
            throw APIValidationError(field: "presented_order", message: "presented_order lists the survey's question ids in the order shown (at most \(Self.maximumPresentedOrderCount)).")
        }
    }
}

import Foundation

/// Answer of `GET /api/v1/beeps/{id}/survey` and `GET /api/v1/survey`: the survey to show.
public struct SurveyDelivery: Codable, Sendable, Hashable {
    public var surveyID: UUID
    /// The survey version; the response sends it back as `survey_version`.
    public var version: Int
    /// The beep being answered; `null` for a volunteered response.
    public var beepID: UUID?
    /// The survey document (Beiwe shape: `content`, `settings`, `survey_type`).
    public var document: JSONValue
    /// For a beep awaiting an answer: by when the answer must be begun (or, once the survey has
    /// been opened, finished); `null` otherwise.
    public var expiresAt: Date?
    /// The participant's values of the variables the survey names (piped texts such as
    /// `{{var:partner_name}}`, conditions on `var:…`); empty when it names none.
    public var variables: [String: JSONValue]

    public init(
        surveyID: UUID, version: Int, beepID: UUID? = nil, document: JSONValue, expiresAt: Date? = nil,
        variables: [String: JSONValue] = [:]
    ) {
        self.surveyID = surveyID
        self.version = version
        self.beepID = beepID
        self.document = document
        self.expiresAt = expiresAt
        self.variables = variables
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            surveyID: try container.decode(UUID.self, forKey: .surveyID), version: try container.decode(Int.self, forKey: .version),
            beepID: try container.decodeIfPresent(UUID.self, forKey: .beepID), document: try container.decode(JSONValue.self, forKey: .document),
            expiresAt: try container.decodeIfPresent(Date.self, forKey: .expiresAt),
            variables: try container.decodeIfPresent([String: JSONValue].self, forKey: .variables) ?? [:])
    }

    enum CodingKeys: String, CodingKey {
        case surveyID = "survey_id"
        case version
        case beepID = "beep_id"
        case document
        case expiresAt = "expires_at"
        case variables
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(surveyID, forKey: .surveyID)
        try container.encode(version, forKey: .version)
        try container.encode(beepID, forKey: .beepID)
        try container.encode(document, forKey: .document)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(variables, forKey: .variables)
    }
}

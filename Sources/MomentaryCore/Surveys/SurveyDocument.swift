import Foundation

/// The kind of survey, Beiwe's `survey_type`.
public enum SurveyType: String, Sendable, Hashable, Codable, CaseIterable {
    case trackingSurvey = "tracking_survey"
    case audioSurvey = "audio_survey"
}

/// A survey in the Beiwe-compatible shape:
/// `{"content": [questions], "settings": {…}, "survey_type": "tracking_survey", "timings": […]}`.
///
/// Question order is the order shown, and is kept. `settings` and any unknown top-level field
/// are kept as they are, so a document round-trips without loss. Reading fails only when the
/// document cannot be understood (`SurveyFormatError`); everything else that is wrong is listed
/// by `problems()`.
public struct SurveyDocument: Sendable, Hashable {
    public var content: [SurveyQuestion]
    public var settings: [String: JSONValue]
    public var surveyType: SurveyType
    /// Only in old-style (device-scheduled) studies.
    public var timings: SurveyTimings?
    /// Top-level fields this version does not know.
    public var extraFields: [String: JSONValue]
    /// The object this document was read from, written back while the document is unchanged.
    public var asRead = KeptJSON()

    public init(
        content: [SurveyQuestion], settings: [String: JSONValue] = [:],
        surveyType: SurveyType = .trackingSurvey, timings: SurveyTimings? = nil,
        extraFields: [String: JSONValue] = [:]
    ) {
        self.content = content
        self.settings = settings
        self.surveyType = surveyType
        self.timings = timings
        self.extraFields = extraFields
    }

    /// The question with this id, if any.
    public func question(withID id: String) -> SurveyQuestion? {
        content.first { $0.id == id }
    }
}

extension SurveyDocument {
    /// Reads a document from JSON text, with a message that says what is wrong when it cannot.
    public init(jsonData: Data) throws(SurveyFormatError) {
        let json: JSONValue
        do {
            json = try JSONDecoder().decode(JSONValue.self, from: jsonData)
        } catch {
            throw SurveyFormatError("The survey is not valid JSON.")
        }
        try self.init(json: json)
    }

    public init(json: JSONValue) throws(SurveyFormatError) {
        guard let object = json.objectValue else {
            throw SurveyFormatError("A survey must be a JSON object with “content”, found \(SurveyMessages.describe(json)).")
        }
        var reader = JSONObjectReader(object, context: "The survey")
        guard let questions = try reader.objectArray("content") else {
            throw SurveyFormatError("The survey has no “content” list of questions.")
        }
        var content: [SurveyQuestion] = []
        for (position, question) in questions.enumerated() {
            content.append(try SurveyQuestion(json: question, position: position))
        }
        let settingsValue = reader.value("settings") ?? .object([:])
        guard let settings = settingsValue.objectValue else {
            let found = SurveyMessages.describe(settingsValue)
            throw SurveyFormatError("The survey’s “settings” must be an object, found \(found).")
        }
        let typeName = try reader.string("survey_type") ?? SurveyType.trackingSurvey.rawValue
        guard let surveyType = SurveyType(rawValue: typeName) else {
            throw SurveyFormatError("Unknown survey_type “\(typeName)” (known: tracking_survey, audio_survey).")
        }
        var timings: SurveyTimings?
        if let value = reader.value("timings") {
            timings = try SurveyTimings(json: value)
        }
        self.init(
            content: content, settings: settings, surveyType: surveyType, timings: timings,
            extraFields: reader.unreadFields)
        asRead = KeptJSON(object)
    }

    /// The document as it is stored and exported: the object it was read from while it is
    /// unchanged, so imported documents round-trip as the same JSON value (no defaults added,
    /// `null`s and numbers written as strings kept); once changed, `json` with each unchanged
    /// question as it was read. Apps are sent `json`, which always has every field.
    public var keptJSON: JSONValue {
        if let object = asRead.unchanged(self, read: { try SurveyDocument(json: .object($0)) }) { return .object(object) }
        guard case .object(var object) = json else { return json }
        object["content"] = .array(content.map { .object($0.keptJSONObject) })
        return .object(object)
    }

    public var json: JSONValue {
        var object = extraFields
        object["content"] = .array(content.map { .object($0.jsonObject) })
        object["settings"] = .object(settings)
        object["survey_type"] = .string(surveyType.rawValue)
        if let timings { object["timings"] = timings.json }
        return .object(object)
    }

    /// The document as JSON text with sorted keys (stable, so versions can be compared).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }
}

extension SurveyDocument: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            try self.init(json: try container.decode(JSONValue.self))
        } catch let error as SurveyFormatError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(keptJSON)
    }
}

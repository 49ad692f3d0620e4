import Foundation
import MomentaryCore

/// One response object of the JSON export. Every key is always present (null when there is no
/// value), so each object has the same shape. Answer values are the stored JSON (numbers, strings,
/// lists, location objects) and the environment is the providers' JSON, both unchanged; a stored
/// text that is somehow not JSON is kept as a string rather than dropped.
struct ExportedResponseJSON: Encodable {
    let study: String
    let record: ExportRecord
    /// The `arm` key, only in a study with arms.
    var armColumn: ArmColumn? = nil

    enum Keys: String, CodingKey {
        case responseID = "response_id", study, participantID = "participant_id", participantLabel = "participant_label", survey
        case surveyKind = "survey_kind", surveyVersion = "survey_version", beepID = "beep_id", origin
        case scheduledAt = "scheduled_at", sentAt = "sent_at", startedAt = "started_at"
        case submittedAt = "submitted_at", receivedAt = "received_at", delaySeconds = "delay_seconds"
        case timeZone = "timezone", scheduledAtLocal = "scheduled_at_local", sentAtLocal = "sent_at_local"
        case startedAtLocal = "started_at_local", submittedAtLocal = "submitted_at_local"
        case volunteered, answers, context, environment, surveyTimings = "survey_timings", sequence, language
        case keptAsIs = "kept_as_is", scores, presentedOrder = "presented_order", arm
    }

    enum AnswerKeys: String, CodingKey {
        case position, questionID = "question_id", questionType = "question_type"
        case questionText = "question_text", status, value
    }

    enum ContextKeys: String, CodingKey {
        case latitude, longitude, altitude, horizontalAccuracy = "horizontal_accuracy"
        case verticalAccuracy = "vertical_accuracy", locatedAt = "located_at", place, country
        case soundAverageDB = "sound_average_db", soundPeakDB = "sound_peak_db", battery, connection, steps
        case impetus, weather, airQuality = "air_quality", pollen
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        // Only a participant's own download numbers its responses; there every object has it.
        if let sequence = record.sequence { try container.encode(sequence, forKey: .sequence) }
        try container.encode(lowercase(record.responseID), forKey: .responseID)
        try container.encode(study, forKey: .study)
        try container.encode(lowercase(record.participantID), forKey: .participantID)
        try container.encode(record.participantLabel, forKey: .participantLabel)
        if let armColumn { try container.encode(armColumn.armByParticipant[record.participantID], forKey: .arm) }
        try container.encode(record.surveyName, forKey: .survey)
        try container.encode(record.surveyKind, forKey: .surveyKind)
        try container.encode(record.surveyVersion, forKey: .surveyVersion)
        try container.encode(record.beepID.map(lowercase), forKey: .beepID)
        try container.encode(record.beepOrigin, forKey: .origin)
        try container.encode(record.scheduledAt.map(ExportTimestamp.text), forKey: .scheduledAt)
        try container.encode(record.sentAt.map(ExportTimestamp.text), forKey: .sentAt)
        try container.encode(ExportTimestamp.text(record.startedAt), forKey: .startedAt)
        try container.encode(ExportTimestamp.text(record.submittedAt), forKey: .submittedAt)
        try container.encode(ExportTimestamp.text(record.receivedAt), forKey: .receivedAt)
        try container.encode(record.delaySeconds, forKey: .delaySeconds)
        try container.encode(record.timeZone.identifier, forKey: .timeZone)
        try container.encode(record.language, forKey: .language)
        let zone = record.timeZone
        try container.encode(ExportCell.local(record.scheduledAt, in: zone).textOrNil, forKey: .scheduledAtLocal)
        try container.encode(ExportCell.local(record.sentAt, in: zone).textOrNil, forKey: .sentAtLocal)
        try container.encode(ExportCell.local(record.startedAt, in: zone).textOrNil, forKey: .startedAtLocal)
        try container.encode(ExportCell.local(record.submittedAt, in: zone).textOrNil, forKey: .submittedAtLocal)
        try container.encode(record.volunteered, forKey: .volunteered)
        try container.encode(Self.json(record.surveyTimings), forKey: .surveyTimings)
        // An imported file's own fields Momentary has no column for (a Reporter report's flags, ids, …).
        try container.encode(Self.json(record.keptAsIs), forKey: .keptAsIs)
        try container.encode(Self.json(record.scores), forKey: .scores)
        try container.encode(Self.json(record.presentedOrder), forKey: .presentedOrder)
        var answers = container.nestedUnkeyedContainer(forKey: .answers)
        for answer in record.answers {
            var object = answers.nestedContainer(keyedBy: AnswerKeys.self)
            try object.encode(answer.position + 1, forKey: .position)
            try object.encode(answer.questionID, forKey: .questionID)
            try object.encode(answer.questionType, forKey: .questionType)
            try object.encode(answer.questionText, forKey: .questionText)
            try object.encode(answer.status, forKey: .status)
            try object.encode(Self.json(answer.value), forKey: .value)
        }
        // Weather, air quality and pollen together, by source (also inside context, as before),
        // each decoded once for both places.
        let environment = Dictionary(uniqueKeysWithValues: (record.context?.environment ?? []).map { ($0.source, Self.json($0.json)) })
        try container.encode(environment.isEmpty ? JSONValue.null : .object(environment), forKey: .environment)
        guard let context = record.context else {
            try container.encodeNil(forKey: .context)
            return
        }
        var object = container.nestedContainer(keyedBy: ContextKeys.self, forKey: .context)
        try object.encode(context.latitude, forKey: .latitude)
        try object.encode(context.longitude, forKey: .longitude)
        try object.encode(context.altitude, forKey: .altitude)
        try object.encode(context.horizontalAccuracy, forKey: .horizontalAccuracy)
        try object.encode(context.verticalAccuracy, forKey: .verticalAccuracy)
        try object.encode(context.locatedAt.map(ExportTimestamp.text), forKey: .locatedAt)
        try object.encode(context.place, forKey: .place)
        try object.encode(context.country, forKey: .country)
        try object.encode(context.soundAverageDB, forKey: .soundAverageDB)
        try object.encode(context.soundPeakDB, forKey: .soundPeakDB)
        try object.encode(context.battery, forKey: .battery)
        try object.encode(context.connection, forKey: .connection)
        try object.encode(context.steps, forKey: .steps)
        try object.encode(context.impetus, forKey: .impetus)
        try object.encode(environment["weather"] ?? .null, forKey: .weather)
        try object.encode(environment["air_quality"] ?? .null, forKey: .airQuality)
        try object.encode(environment["pollen"] ?? .null, forKey: .pollen)
    }

    private func lowercase(_ id: UUID) -> String { id.uuidString.lowercased() }

    private static func json(_ text: String?) -> JSONValue {
        guard let text else { return .null }
        return (try? decoder.decode(JSONValue.self, from: Data(text.utf8))) ?? .string(text)
    }

    /// One for every value, not one per call (JSONDecoder is safe to share).
    private static let decoder = JSONDecoder()
}

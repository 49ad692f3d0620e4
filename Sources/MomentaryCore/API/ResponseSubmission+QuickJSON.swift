import Foundation

/// A body the server may read with `QuickJSON` before falling back on `JSONDecoder`.
public protocol QuickJSONDecodable: Decodable {
    /// The value `JSONDecoder` would decode from `bytes` (with `WireCoding.makeDecoder()`), or nil
    /// when the quick reading is not sure of it; never a value `JSONDecoder` would refuse.
    static func quickDecoded(from bytes: UnsafeRawBufferPointer) -> Self?
}

// Each reading below follows its type's `init(from:)` (written or synthesized) field for field:
// `required` for `decode`, `optional` for `decodeIfPresent`, `omittable` for `decodeOmittable`.
// `QuickJSONTests` decodes the same bodies both ways and compares.

extension ResponseSubmission: QuickJSONDecodable {
    public static func quickDecoded(from bytes: UnsafeRawBufferPointer) -> ResponseSubmission? {
        guard let body = QuickJSON.parse(bytes)?.object,
              let idempotencyKey = body.required("idempotency_key", \.string),
              let beepID = body.optional("beep_id", \.uuid),
              let surveyID = body.optional("survey_id", \.uuid),
              let surveyVersion = body.required("survey_version", \.integer),
              let startedAt = body.required("started_at", \.date),
              let submittedAt = body.required("submitted_at", \.date),
              let answers = body.required("answers", { $0.array?.mapAll(SubmittedAnswer.init(quick:)) }),
              let context = body.omittable("context", ResponseContext.init(quick:)),
              let timings = body.omittable("timings", { $0.array?.mapAll(SurveyTiming.init(quick:)) }),
              let presentedOrder = body.optional("presented_order", { $0.array?.mapAll(\.string) })
        else { return nil }
        return ResponseSubmission(
            idempotencyKey: idempotencyKey, beepID: beepID, surveyID: surveyID, surveyVersion: surveyVersion,
            startedAt: startedAt, submittedAt: submittedAt, answers: answers,
            context: context ?? ResponseContext(), timings: timings ?? [], presentedOrder: presentedOrder)
    }
}

extension SubmittedAnswer {
    init?(quick node: QuickJSON.Node) {
        guard let answer = node.object,
              let questionID = answer.required("question_id", \.string),
              let value = answer.optional("answer", { $0.jsonValue })
        else { return nil }
        self.init(questionID: questionID, answer: value)
    }
}

extension ResponseContext {
    init?(quick node: QuickJSON.Node) {
        guard let context = node.object,
              let location = context.optional("location", LocationFix.init(quick:)),
              let sound = context.optional("sound", SoundLevel.init(quick:)),
              let battery = context.optional("battery", \.double),
              let connection = context.optional("connection", { $0.string.flatMap(ConnectionKind.init(rawValue:)) }),
              let steps = context.optional("steps", \.integer),
              let impetus = context.optional("impetus", { $0.string.flatMap(ReportImpetus.init(rawValue:)) })
        else { return nil }
        self.init(location: location, sound: sound, battery: battery, connection: connection, steps: steps, impetus: impetus)
    }
}

extension LocationFix {
    init?(quick node: QuickJSON.Node) {
        guard let fix = node.object,
              let latitude = fix.required("latitude", \.double),
              let longitude = fix.required("longitude", \.double),
              let altitude = fix.optional("altitude", \.double),
              let horizontalAccuracy = fix.optional("horizontal_accuracy", \.double),
              let verticalAccuracy = fix.optional("vertical_accuracy", \.double),
              let timestamp = fix.required("timestamp", \.date)
        else { return nil }
        self.init(latitude: latitude, longitude: longitude, altitude: altitude,
                  horizontalAccuracy: horizontalAccuracy, verticalAccuracy: verticalAccuracy, timestamp: timestamp)
    }
}

extension SoundLevel {
    init?(quick node: QuickJSON.Node) {
        guard let sound = node.object,
              let averageDB = sound.required("average_db", \.double),
              let peakDB = sound.required("peak_db", \.double)
        else { return nil }
        self.init(averageDB: averageDB, peakDB: peakDB)
    }
}

extension SurveyTiming {
    init?(quick node: QuickJSON.Node) {
        guard let timing = node.object,
              let questionID = timing.optional("question_id", \.string),
              let event = timing.required("event", { $0.string.flatMap(Event.init(rawValue:)) }),
              let at = timing.required("at", \.date),
              let answer = timing.optional("answer", { $0.jsonValue })
        else { return nil }
        self.init(questionID: questionID, event: event, at: at, answer: answer)
    }
}

extension Array {
    /// Every element transformed, or nil if any one fails.
    func mapAll<T>(_ transform: (Element) -> T?) -> [T]? {
        var result: [T] = []
        result.reserveCapacity(count)
        for element in self {
            guard let value = transform(element) else { return nil }
            result.append(value)
        }
        return result
    }
}

import Foundation
import Testing
@testable import MomentaryCore

@Suite("Response wire types")
struct ResponseWireTests {
    static let example = #"""
    {
      "idempotency_key": "6b1e1c1e-0d55-4a43-8c56-0f7f9b7c1a10",
      "beep_id": "1f0c6a52-3c57-4c39-9c1b-2b5c8b1e0e11",
      "survey_version": 4,
      "started_at": "2026-03-29T08:14:00Z",
      "submitted_at": "2026-03-29T08:15:12.375Z",
      "answers": [{"question_id": "happy", "answer": 81}, {"question_id": "doing", "answer": ["working", "music"]}],
      "context": {
        "location": {"latitude": 51.5246, "longitude": -0.1340, "altitude": 31.0,
                     "horizontal_accuracy": 65, "vertical_accuracy": 10, "timestamp": "2026-03-29T08:13:40Z"},
        "sound": {"average_db": -38.5, "peak_db": -12.0},
        "battery": 0.64, "connection": "wifi", "steps": 412, "impetus": "notification"
      }
    }
    """#

    @Test("the issue's response example decodes")
    func decodesExample() throws {
        let response = try Wire.decode(ResponseSubmission.self, Self.example)
        #expect(response.idempotencyKey == "6b1e1c1e-0d55-4a43-8c56-0f7f9b7c1a10")
        #expect(response.beepID != nil)
        #expect(response.surveyVersion == 4)
        #expect(response.submittedAt.timeIntervalSince(response.startedAt) > 72.3)
        #expect(response.answers.map(\.questionID) == ["happy", "doing"])
        #expect(response.context.location?.horizontalAccuracy == 65)
        #expect(response.context.sound == SoundLevel(averageDB: -38.5, peakDB: -12))
        #expect(response.context.connection == .wifi)
        #expect(response.context.impetus == .notification)
        try response.validate()
    }

    @Test("a volunteered response needs neither beep nor context")
    func volunteered() throws {
        let response = try Wire.decode(ResponseSubmission.self, #"""
        {"idempotency_key": "k1", "survey_version": 1, "started_at": "2026-03-29T08:14:00Z",
         "submitted_at": "2026-03-29T08:14:30Z", "answers": []}
        """#)
        #expect(response.beepID == nil)
        #expect(response.context == ResponseContext())
        let object = try Wire.encodeObject(response)
        #expect(object["beep_id"] == nil)
        #expect(object["context"] == .object([:]))
        #expect(response.timings.isEmpty, "timings are optional")
    }

    @Test("timing events decode with their question, event, instant and answer")
    func timings() throws {
        let response = try Wire.decode(ResponseSubmission.self, #"""
        {"idempotency_key": "k1", "survey_version": 1, "started_at": "2026-03-29T08:14:00Z",
         "submitted_at": "2026-03-29T08:14:30Z", "answers": [],
         "timings": [{"question_id": "happy", "event": "changed", "at": "2026-03-29T08:14:05.250Z", "answer": 70},
                     {"question_id": null, "event": "submitted", "at": "2026-03-29T08:14:30Z"}]}
        """#)
        #expect(response.timings.map(\.event) == [.changed, .submitted])
        #expect(response.timings[0].questionID == "happy" && response.timings[0].answer == .number(70))
        #expect(response.timings[1].questionID == nil && response.timings[1].answer == nil)
        #expect(throws: DecodingError.self) {
            try Wire.decode(ResponseSubmission.self, #"""
            {"idempotency_key": "k1", "survey_version": 1, "started_at": "2026-03-29T08:14:00Z",
             "submitted_at": "2026-03-29T08:14:30Z", "answers": [], "timings": [{"event": "blinked", "at": "2026-03-29T08:14:05Z"}]}
            """#)
        }
    }

    @Test("encoding uses the contract's keys at every level")
    func encodesKeys() throws {
        let response = try Wire.decode(ResponseSubmission.self, Self.example)
        let object = try Wire.encodeObject(response)
        #expect(Set(object.keys) == ["idempotency_key", "beep_id", "survey_version", "started_at", "submitted_at",
                                     "answers", "context", "timings"])
        let context = try #require(object["context"]?.objectValue)
        #expect(Set(context.keys) == ["location", "sound", "battery", "connection", "steps", "impetus"])
        #expect(Set(context["location"]?.objectValue?.keys ?? [:].keys) ==
                ["latitude", "longitude", "altitude", "horizontal_accuracy", "vertical_accuracy", "timestamp"])
        #expect(context["sound"] == .object(["average_db": .number(-38.5), "peak_db": .number(-12)]))
        #expect(object["submitted_at"] == .string("2026-03-29T08:15:12.375Z"))
    }

    /// One way to break an otherwise valid response, and the field the error must name.
    enum Breakage: String, CaseIterable, Sendable {
        case latitude = "context.location.latitude"
        case battery = "context.battery"
        case steps = "context.steps"
        case submittedBeforeStarted = "submitted_at"
        case badKey = "idempotency_key"
        case duplicateAnswer = "answers[1].question_id"

        func apply(to response: inout ResponseSubmission) {
            switch self {
            case .latitude: response.context.location?.latitude = 91
            case .battery: response.context.battery = 1.5
            case .steps: response.context.steps = -1
            case .submittedBeforeStarted: response.submittedAt = response.startedAt.addingTimeInterval(-1)
            case .badKey: response.idempotencyKey = "has space"
            case .duplicateAnswer: response.answers[1] = response.answers[0]
            }
        }
    }

    @Test("out-of-range context and inconsistent values are rejected with the field named",
          arguments: Breakage.allCases)
    func rejectsInvalid(breakage: Breakage) throws {
        var response = try Wire.decode(ResponseSubmission.self, Self.example)
        breakage.apply(to: &response)
        do {
            try response.validate()
            Issue.record("expected \(breakage.rawValue) to be rejected")
        } catch {
            #expect(error.field == breakage.rawValue)
            #expect(error.code == .validationFailed)
            #expect(!error.message.isEmpty)
        }
    }

    @Test("receipts write delay_seconds as null for volunteered responses")
    func receipts() throws {
        let id = UUID()
        let object = try Wire.encodeObject(ResponseReceipt(responseID: id, volunteered: true))
        #expect(object == ["response_id": .string(id.uuidString), "volunteered": .bool(true), "delay_seconds": .null])
        let beeped = try Wire.decode(ResponseReceipt.self, #"""
        {"response_id": "1f0c6a52-3c57-4c39-9c1b-2b5c8b1e0e11", "volunteered": false, "delay_seconds": 72}
        """#)
        #expect(beeped.delaySeconds == 72)
        #expect(try Wire.decode(PhotoReceipt.self, #"{"photo_id": "\#(id.uuidString)"}"#).photoID == id)
    }
}

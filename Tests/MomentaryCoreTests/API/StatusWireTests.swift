import Foundation
import Testing
@testable import MomentaryCore

@Suite("Status and survey wire types")
struct StatusWireTests {
    @Test("undefined figures decode from null")
    func decodesNulls() throws {
        let status = try Wire.decode(ParticipantStatus.self, #"""
        {"responses": 0, "response_rate": null, "typical_response_seconds": null,
         "pending_beep": null, "message": null}
        """#)
        #expect(status == ParticipantStatus(responses: 0))
    }

    @Test("undefined figures are written as explicit nulls")
    func encodesNulls() throws {
        let object = try Wire.encodeObject(ParticipantStatus(responses: 0))
        #expect(object == [
            "responses": .number(0), "response_rate": .null, "typical_response_seconds": .null,
            "pending_beep": .null, "message": .null,
            "feedback_available": .bool(false), "data_download_available": .bool(false), "data_download_enabled": .bool(false),
            "environment": .null, "language": .null, "unread_messages": .number(0),
        ])
    }

    @Test("a pending beep carries its times; expires_at is optional")
    func pendingBeep() throws {
        let status = try Wire.decode(ParticipantStatus.self, #"""
        {"responses": 12, "response_rate": 0.75, "typical_response_seconds": 340.5,
         "pending_beep": {"id": "1f0c6a52-3c57-4c39-9c1b-2b5c8b1e0e11", "scheduled_at": "2026-03-29T08:14:00Z"},
         "message": "Thanks!"}
        """#)
        #expect(status.responseRate == 0.75)
        #expect(status.typicalResponseSeconds == 340.5)
        #expect(status.pendingBeep?.scheduledAt == Wire.date("2026-03-29T08:14:00Z"))
        #expect(status.pendingBeep?.expiresAt == nil)
        let beep = try Wire.encodeObject(PendingBeep(id: UUID(), scheduledAt: Wire.date("2026-03-29T08:14:00Z"),
                                                     expiresAt: Wire.date("2026-03-29T10:00:00.5Z")))
        #expect(beep["expires_at"] == .string("2026-03-29T10:00:00.500Z"))
    }

    @Test("a survey delivery wraps the document; beep_id and expires_at are null when volunteered")
    func surveyDelivery() throws {
        let delivery = try Wire.decode(SurveyDelivery.self, #"""
        {"survey_id": "1f0c6a52-3c57-4c39-9c1b-2b5c8b1e0e11", "version": 3,
         "document": {"content": [], "settings": {}, "survey_type": "tracking_survey"}}
        """#)
        #expect(delivery.version == 3)
        #expect(delivery.beepID == nil)
        #expect(delivery.document.objectValue?["survey_type"] == .string("tracking_survey"))
        let object = try Wire.encodeObject(delivery)
        #expect(object["beep_id"] == .null)
        #expect(object["expires_at"] == .null)
        // A survey that names no participant variable is sent with none (an empty object, not null).
        #expect(object["variables"] == .object([:]))
        #expect(Set(object.keys) == ["survey_id", "version", "beep_id", "document", "expires_at", "variables"])
        let awaited = try Wire.decode(SurveyDelivery.self, #"{"survey_id": "1f0c6a52-3c57-4c39-9c1b-2b5c8b1e0e11", "version": 3, "beep_id": "2f0c6a52-3c57-4c39-9c1b-2b5c8b1e0e11", "document": {"content": []}, "expires_at": "2026-03-29T10:15:00Z", "variables": {"partner_name": "Alex", "baseline": 3.5}}"#)
        #expect(awaited.expiresAt == WireCoding.date(from: "2026-03-29T10:15:00Z"))
        #expect(awaited.variables == ["partner_name": .string("Alex"), "baseline": .number(3.5)])
    }

    @Test("withdraw takes an optional delete_data flag")
    func withdraw() throws {
        #expect(try Wire.decode(WithdrawRequest.self, "{}") == WithdrawRequest(deleteData: false))
        #expect(try Wire.decode(WithdrawRequest.self, #"{"delete_data": true}"#).deleteData)
        #expect(try Wire.encodeObject(WithdrawRequest(deleteData: true)) == ["delete_data": .bool(true)])
    }
}

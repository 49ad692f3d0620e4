import Foundation
import Testing
@testable import MomentaryCore

@Suite("Registration wire types")
struct RegistrationWireTests {
    static let example = #"""
    {
      "study": "mappiness",
      "invitation_code": "K7QZP",
      "consent": true,
      "timezone": "Europe/London",
      "settings": {"beeps_per_day": 3, "start": "08:00", "end": "22:00", "sound": "chime"},
      "push": {"channel": "apns", "token": "a1b2c3d4", "environment": "sandbox"},
      "registration_answers": [{"question_id": "age", "answer": 34}],
      "device": {"model": "iPhone15,2", "os": "iOS 18.3", "app_version": "1.0"}
    }
    """#

    @Test("the issue's registration example decodes")
    func decodesExample() throws {
        let request = try Wire.decode(RegistrationRequest.self, Self.example)
        #expect(request.study == "mappiness")
        #expect(request.invitationCode == "K7QZP")
        #expect(request.consent)
        #expect(request.timezone == "Europe/London")
        #expect(request.settings.beepsPerDay == 3)
        #expect(request.settings.sound == "chime")
        #expect(request.push == .apns(token: "a1b2c3d4", environment: .sandbox))
        #expect(request.registrationAnswers.count == 1)
        #expect(request.registrationAnswers.first?.answer == .number(34))
        #expect(request.device == DeviceInfo(model: "iPhone15,2", os: "iOS 18.3", appVersion: "1.0"))
        try request.validate()
    }

    @Test("optional parts may be left out")
    func minimalRegistration() throws {
        let request = try Wire.decode(RegistrationRequest.self, #"""
        {"study": "s", "consent": true, "timezone": "UTC",
         "settings": {"beeps_per_day": 2, "start": "08:00", "end": "22:00"},
         "push": {"channel": "none"}, "device": {"model": "m", "os": "o", "app_version": "1"}}
        """#)
        #expect(request.invitationCode == nil)
        #expect(request.registrationAnswers.isEmpty)
        #expect(request.push == .none)
    }

    @Test("encoding uses the snake_case keys")
    func encodesKeys() throws {
        let request = try Wire.decode(RegistrationRequest.self, Self.example)
        let object = try Wire.encodeObject(request)
        #expect(Set(object.keys) == ["study", "invitation_code", "consent", "timezone", "settings", "push",
                                     "registration_answers", "device"])
        #expect(object["device"]?.objectValue?["app_version"] == .string("1.0"))
        #expect(try Wire.decode(RegistrationRequest.self, String(decoding: WireCoding.makeEncoder().encode(request), as: UTF8.self)) == request)
    }

    @Test("registration without consent is refused with consent_required")
    func consentRequired() throws {
        var request = try Wire.decode(RegistrationRequest.self, Self.example)
        request.consent = false
        #expect(throws: APIValidationError.self) { try request.validate() }
        do {
            try request.validate()
        } catch {
            #expect(error.code == .consentRequired)
            #expect(error.field == "consent")
        }
    }

    @Test("web push subscriptions use the browser's toJSON shape")
    func webPushShape() throws {
        let p256dh = Data(repeating: 4, count: 65).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .trimmingCharacters(in: CharacterSet(charactersIn: "="))
        let auth = "AAECAwQFBgcICQoLDA0ODw"
        let json = #"""
        {"channel": "webpush", "subscription": {"endpoint": "https://push.example.net/abc",
         "expirationTime": null, "keys": {"p256dh": "\#(p256dh)", "auth": "\#(auth)"}}}
        """#
        let push = try Wire.decode(PushRegistration.self, json)
        #expect(push.channel == .webPush)
        #expect(push == .webPush(WebPushSubscription(
            endpoint: "https://push.example.net/abc", keys: .init(p256dh: p256dh, auth: auth))))
        try push.validate()
        let object = try Wire.encodeObject(push)
        #expect(object["channel"] == .string("webpush"))
        #expect(object["subscription"]?.objectValue?["keys"]?.objectValue?["auth"] == .string(auth))
    }

    @Test("push registrations that cannot work are rejected with the field named")
    func invalidPush() throws {
        #expect(throws: DecodingError.self) { try Wire.decode(PushRegistration.self, #"{"channel": "apns"}"#) }
        #expect(throws: DecodingError.self) { try Wire.decode(PushRegistration.self, #"{"channel": "fcm", "token": "x"}"#) }
        let badToken = PushRegistration.apns(token: "not hex!", environment: .production)
        #expect(throws: APIValidationError(field: "push.token", message:
            "The APNs device token must be a non-empty hexadecimal string with an even number of digits (at most 200).")) {
            try badToken.validate()
        }
        let plainHTTP = PushRegistration.webPush(.init(endpoint: "http://push.example.net/x",
                                                       keys: .init(p256dh: "AA", auth: "AA")))
        #expect(throws: APIValidationError.self) { try plainHTTP.validate() }
    }

    @Test("apns environment defaults to production")
    func apnsDefaultEnvironment() throws {
        let push = try Wire.decode(PushRegistration.self, #"{"channel": "apns", "token": "00ff"}"#)
        #expect(push == .apns(token: "00ff", environment: .production))
    }

    @Test("the registration answer has participant, secret, study and, for device studies, schedule")
    func registrationResponse() throws {
        let response = try Wire.decode(RegistrationResponse.self, #"""
        {"participant_id": "1f0c6a52-3c57-4c39-9c1b-2b5c8b1e0e11", "secret": "abcdefghij0123456789",
         "study": {"slug": "beiwe-old", "name": "Old style", "scheduling": "device"},
         "schedule": {"weekly": []}, "surveys": [{"content": []}]}
        """#)
        #expect(response.participantID == UUID(uuidString: "1F0C6A52-3C57-4C39-9C1B-2B5C8B1E0E11"))
        #expect(response.study.scheduling == .device)
        #expect(response.schedule == .object(["weekly": .array([])]))
        #expect(response.surveys?.arrayValue?.count == 1)

        let serverStyle = RegistrationResponse(participantID: UUID(), secret: "s",
                                               study: StudySummary(slug: "m", name: "M", scheduling: .server))
        let object = try Wire.encodeObject(serverStyle)
        #expect(Set(object.keys) == ["participant_id", "secret", "study"])
        #expect(object["study"]?.objectValue?["scheduling"] == .string("server"))
    }
}

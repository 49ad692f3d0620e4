import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

/// The constraints `openapi.yaml` states and the rules the server enforces are the same: each
/// documented pattern is tried against the server's own check on values either side of its edges,
/// and fields the document gives no null are refused when null.
@Suite("OpenAPI constraints")
struct OpenAPIConstraintTests {
    /// The `pattern` of `property` in the schema at `path` (names under components/schemas, then properties).
    static func pattern(_ path: [String]) throws -> NSRegularExpression {
        var node: Any = try #require((try OpenAPIContractTests.document()["components"] as? [String: Any])?["schemas"])
        for name in path {
            let object = try #require(node as? [String: Any], "no \(name) in \(path)")
            node = try #require(object[name] ?? (object["properties"] as? [String: Any])?[name], "no \(name) in \(path)")
        }
        let text = try #require((node as? [String: Any])?["pattern"] as? String, "\(path) has no pattern")
        return try NSRegularExpression(pattern: text)
    }

    /// Whether the pattern matches as JSON Schema (ECMA-262) means it: ICU's `$` also matches
    /// before a final newline, so the match must cover the whole text.
    static func matches(_ expression: NSRegularExpression, _ text: String) -> Bool {
        let whole = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, range: whole)?.range == whole
    }

    static func submission(key: String) -> ResponseSubmission {
        ResponseSubmission(idempotencyKey: key, beepID: nil, surveyVersion: 1, startedAt: Date(), submittedAt: Date(), answers: [])
    }

    @Test("idempotency keys: the documented pattern and the server accept the same keys")
    func idempotencyKeys() throws {
        let pattern = try Self.pattern(["ResponseSubmission", "idempotency_key"])
        let keys = ["a", "A-b_c.d:e", UUID().uuidString, String(repeating: "k", count: 128), String(repeating: "k", count: 129),
                    "", "has space", "slash/", "émoji", "tab\t", "a+b", "line\n", "semi;colon"]
        for key in keys {
            let accepted = (try? Self.submission(key: key).validate()) != nil
            #expect(Self.matches(pattern, key) == accepted, "“\(key)”: document \(Self.matches(pattern, key)), server \(accepted)")
        }
    }

    @Test("Web Push keys: the documented patterns and the server accept the same p256dh and auth values")
    func webPushKeys() throws {
        let webPush = try #require(((try OpenAPIContractTests.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])?["PushRegistration"] as? [String: Any])
        let keys = try #require((webPush["oneOf"] as? [[String: Any]])?.compactMap { variant -> [String: Any]? in
            let subscription = (variant["properties"] as? [String: Any])?["subscription"] as? [String: Any]
            return ((subscription?["properties"] as? [String: Any])?["keys"] as? [String: Any])?["properties"] as? [String: Any]
        }.first, "PushRegistration has no webpush keys")
        let p256dhPattern = try NSRegularExpression(pattern: try #require((keys["p256dh"] as? [String: Any])?["pattern"] as? String))
        let authPattern = try NSRegularExpression(pattern: try #require((keys["auth"] as? [String: Any])?["pattern"] as? String))
        let point = "B" + String(repeating: "A", count: 86)
        let secret = String(repeating: "Q", count: 22)
        let p256dhs = [point, point + "=", String(point.dropLast()), point + "A", "B" + String(repeating: "+", count: 86), ""]
        let auths = [secret, secret + "==", String(secret.dropLast()), String(repeating: "/", count: 22)]
        for p256dh in p256dhs {
            let registration = PushRegistration.webPush(.init(endpoint: "https://push.example.org/x", keys: .init(p256dh: p256dh, auth: secret)))
            let accepted = (try? registration.validate()) != nil
            #expect(Self.matches(p256dhPattern, p256dh) == accepted, "p256dh “\(p256dh)”")
        }
        for auth in auths {
            let registration = PushRegistration.webPush(.init(endpoint: "https://push.example.org/x", keys: .init(p256dh: point, auth: auth)))
            let accepted = (try? registration.validate()) != nil
            #expect(Self.matches(authPattern, auth) == accepted, "auth “\(auth)”")
        }
    }

    @Test("signalling hours: the documented quarter-hour pattern is the settings' own rule, at every minute of the day")
    func quarterHours() throws {
        let pattern = try Self.pattern(["QuarterHour"])
        for minutes in 0..<1440 {
            let time = try #require(TimeOfDay(minutes: minutes))
            let settings = SignallingSettings(beepsPerDay: 1, start: time, end: TimeOfDay(minutes: (minutes + 720) % 1440)!)
            var onQuarterHour = true
            do { try settings.validate(minimumGapMinutes: 0) } catch { if case .notOnQuarterHour = error { onQuarterHour = false } }
            #expect(Self.matches(pattern, time.description) == onQuarterHour, "\(time)")
        }
    }

    @Test("study slugs: the documented pattern is the slug rule studies are created with")
    func studySlugs() throws {
        let pattern = try Self.pattern(["RegistrationRequest", "study"])
        for slug in ["demo", "ab", "a1-b2", String(repeating: "s", count: 40), String(repeating: "s", count: 41),
                     "a", "", "-ab", "ab-", "Demo", "a_b", "a b", "ünï"] {
            #expect(Self.matches(pattern, slug) == (StudySlug.problem(slug) == nil), "“\(slug)”")
        }
    }

    @Test("fields the document gives no null are refused when null, and accepted when left out")
    func nullsRefused() throws {
        let decoder = WireCoding.makeDecoder()
        func decodes<T: Decodable>(_ type: T.Type, _ json: String) -> Bool {
            (try? decoder.decode(T.self, from: Data(json.utf8))) != nil
        }
        #expect(decodes(PushRegistration.self, #"{"channel":"apns","token":"00ff"}"#))
        #expect(!decodes(PushRegistration.self, #"{"channel":"apns","token":"00ff","environment":null}"#))
        #expect(decodes(WithdrawRequest.self, #"{}"#))
        #expect(!decodes(WithdrawRequest.self, #"{"delete_data":null}"#))
        #expect(decodes(SettingsUpdate.self, #"{"beeps_per_day":2,"start":"08:00","end":"22:00"}"#))
        #expect(!decodes(SettingsUpdate.self, #"{"beeps_per_day":2,"start":"08:00","end":"22:00","timezone":null}"#))
        let response = #"{"idempotency_key":"k","survey_version":1,"started_at":"2026-01-01T10:00:00Z","submitted_at":"2026-01-01T10:01:00Z","answers":[]"#
        #expect(decodes(ResponseSubmission.self, response + #","beep_id":null,"survey_id":null}"#), "documented as nullable")
        #expect(!decodes(ResponseSubmission.self, response + #","context":null}"#))
        #expect(!decodes(ResponseSubmission.self, response + #","timings":null}"#))
        let registration = #"{"study":"demo","consent":true,"timezone":"Europe/London","settings":{"beeps_per_day":2,"start":"08:00","end":"22:00"},"push":{"channel":"none"},"device":{"model":"m","os":"o","app_version":"1"}"#
        #expect(decodes(RegistrationRequest.self, registration + "}"))
        #expect(!decodes(RegistrationRequest.self, registration + #","invitation_code":null}"#))
        #expect(!decodes(RegistrationRequest.self, registration + #","registration_answers":null}"#))
    }
}

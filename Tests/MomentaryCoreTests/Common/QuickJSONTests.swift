import Foundation
import Testing
@testable import MomentaryCore

/// `QuickJSON`'s reading of a submission against `JSONDecoder`'s, the API's definition of a body:
/// where the quick reading gives a value it must be `JSONDecoder`'s, and where `JSONDecoder`
/// refuses a body the quick reading must give up. Ordinary bodies must take the quick path.
@Suite("Quick JSON reading of submissions")
struct QuickJSONTests {
    /// Both readings of a body: the quick one, and `JSONDecoder`'s (nil when it throws).
    private static func readings(_ body: String) -> (quick: ResponseSubmission?, decoded: ResponseSubmission?) {
        let bytes = Array(body.utf8)
        let quick = bytes.withUnsafeBytes { ResponseSubmission.quickDecoded(from: $0) }
        let decoded = try? WireCoding.makeDecoder().decode(ResponseSubmission.self, from: Data(bytes))
        return (quick, decoded)
    }

    /// Fails unless the quick reading is absent or equal to `JSONDecoder`'s, and absent whenever
    /// `JSONDecoder` refuses the body. Returns whether the quick reading was taken.
    @discardableResult
    private static func expectAgreement(_ body: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let (quick, decoded) = readings(body)
        guard let quick else { return false }
        #expect(quick == decoded, "quick reading differs from JSONDecoder's for \(body)", sourceLocation: sourceLocation)
        return true
    }

    private static let now = WireCoding.date(from: "2026-11-27T08:14:03.250Z")!

    /// Submissions of every shape the apps send, encoded as they encode them.
    private static func ordinarySubmissions() -> [ResponseSubmission] {
        var generator = Xoshiro256StarStar(seed: 7)
        let contexts = [
            ResponseContext(),
            ResponseContext(
                location: LocationFix(latitude: 51.5, longitude: -0.12, altitude: 31.25, horizontalAccuracy: 20,
                                      verticalAccuracy: 4.5, timestamp: now.addingTimeInterval(-90)),
                sound: SoundLevel(averageDB: -12.5, peakDB: 61), battery: 0.7, connection: .cellular, steps: 0, impetus: .buttonWhileAsleep),
            ResponseContext(location: LocationFix(latitude: -33.9, longitude: 151.2, timestamp: now), impetus: .notification),
            ResponseContext(location: LocationFix(latitude: 40.7, longitude: -74, altitude: -2, horizontalAccuracy: 65,
                                                  verticalAccuracy: 12, timestamp: now.addingTimeInterval(-4))),
            ResponseContext(sound: SoundLevel(averageDB: 40, peakDB: 72.5), battery: 0.15, connection: .wifi, steps: 5_230),
        ]
        let timings = [
            SurveyTiming(questionID: "happy", event: .present, at: now),
            SurveyTiming(questionID: "happy", event: .changed, at: now.addingTimeInterval(1.5), answer: .number(64)),
            SurveyTiming(questionID: "place", event: .changed, at: now.addingTimeInterval(4), answer: .string("home")),
            SurveyTiming(questionID: nil, event: .submitted, at: now.addingTimeInterval(9)),
        ]
        return (0..<60).map { index in
            ResponseSubmission(
                idempotencyKey: "q-\(index)", beepID: index % 2 == 0 ? UUID() : nil, surveyID: index % 3 == 0 ? UUID() : nil,
                surveyVersion: 1 + index % 4, startedAt: now.addingTimeInterval(-Double(index % 7)), submittedAt: now.addingTimeInterval(Double(index)),
                answers: index == 1 ? [] : SampleSurveys.experienceSampling.randomAnswers(using: &generator, skipProbability: 0.3),
                context: contexts[index % contexts.count], timings: index % 5 == 0 ? timings : [],
                presentedOrder: [nil, [], ["happy", "place"], ["place", "happy"]][index % 4])
        }
    }

    @Test("the bodies apps send are read quickly, to the value JSONDecoder reads")
    func ordinaryBodies() throws {
        let encoder = WireCoding.makeEncoder()
        for submission in Self.ordinarySubmissions() {
            let body = String(decoding: try encoder.encode(submission), as: UTF8.self)
            #expect(Self.expectAgreement(body), "not read quickly: \(body)")
            #expect(Self.readings(body).quick == submission)
        }
    }

    /// A field the quick reading forgot would be read as absent: nil, empty, or its default. Each
    /// field therefore takes two values among the ordinary bodies (nil and a value, empty and not,
    /// two values), so that `ordinaryBodies` sees such a field lost. A field added to a submission
    /// or its parts fails here until `ordinarySubmissions` varies it.
    @Test("every field of a submission and its parts takes two values among the ordinary bodies")
    func ordinaryBodiesVaryEveryField() {
        var values: [String: Set<String>] = [:]
        for submission in Self.ordinarySubmissions() { Self.collectValues(of: submission, at: "submission", into: &values) }
        let constant = values.filter { $0.value.count < 2 }.keys.sorted()
        #expect(constant.isEmpty, "fields with one value in every ordinary body: \(constant)")
        #expect(values.keys.contains("submission.context.location?.verticalAccuracy"), "the walk reaches the parts' fields: \(values.keys.sorted())")
    }

    /// The values each field (a path of property names; `[]` for an array's elements) takes.
    /// Structs are walked into; anything else (strings, numbers, enumerations, JSON values) is a
    /// value, told apart by its description.
    private static func collectValues(of value: Any, at path: String, into values: inout [String: Set<String>]) {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else {
                values[path, default: []].insert("nil")
                return
            }
            values[path, default: []].insert("some")
            collectValues(of: wrapped.value, at: path + "?", into: &values)
        case .collection:
            values[path, default: []].insert(mirror.children.isEmpty ? "empty" : "not empty")
            for element in mirror.children { collectValues(of: element.value, at: path + "[]", into: &values) }
        case .struct where !mirror.children.isEmpty:
            for child in mirror.children {
                collectValues(of: child.value, at: path + "." + (child.label ?? "_"), into: &values)
            }
        default:
            values[path, default: []].insert(String(describing: value))
        }
    }

    private static let minimal = #""idempotency_key": "k", "survey_version": 2, "started_at": "2026-11-27T08:14:00Z", "submitted_at": "2026-11-27T08:15:00+01:00""#

    /// A body of the minimal members and `extra`.
    private static func body(_ extra: String = #""answers": []"#) -> String { "{\(minimal), \(extra)}" }

    @Test("spellings JSON allows are read quickly and mean what JSONDecoder reads", arguments: [
        body(),
        "\n{ \(minimal) ,\t\"answers\" : [ ] }\r\n",
        body(#""answers": [], "unknown": {"nested": [1, {"x": null}]}, "beep_id": null, "survey_id": null"#),
        body(#""answers": [{"question_id": "a", "answer": null}, {"question_id": "b"}, {"question_id": "c", "answer": -0}]"#),
        body(#""answers": [{"question_id": "a", "answer": [1, 2.5, -3e2, 1E-2, 0.000001, 123456789012345678]}]"#),
        body(#""answers": [{"question_id": "a", "answer": {"lat": 1, "place": "home", "ok": true, "none": null, "list": []}}]"#),
        body(#""answers": [{"question_id": "caf\u00e9 \ud83d\ude00", "answer": "line\nbreak \"quoted\" back\\slash \/ \b\f\r\t"}]"#),
        body(#""answers": [{"question_id": "naïve", "answer": "😀 ünïcödé 中文"}]"#),
        body(#""answers": [{"question\u005fid": "a", "answer": "\uFFFF\uFEFF\uDBFF\uDFFF\u001f"}]"#),
        body(#""answers": [], "context": {}, "timings": []"#),
        body(#""answers": [], "context": {"location": null, "sound": null, "battery": null, "steps": null, "connection": null, "impetus": null}"#),
        body(#""answers": [], "context": {"location": {"latitude": 1, "longitude": 2, "timestamp": "2026-11-27T08:14:00.5Z", "altitude": null}, "connection": "none"}"#),
        body(#""answers": [], "timings": [{"event": "expired", "at": "2026-11-27T08:14:00Z"}, {"question_id": null, "event": "present", "at": "2026-11-27T08:14:00Z", "answer": [true]}]"#),
        body(#""answers": [], "presented_order": ["b", "a"]"#), body(#""answers": [], "presented_order": null"#),
        body(#""answers": [], "survey_version": 1"#).replacingOccurrences(of: #""survey_version": 2, "#, with: ""),
    ])
    func allowedSpellings(body: String) {
        #expect(Self.expectAgreement(body), "not read quickly: \(body)")
    }

    @Test("bodies JSONDecoder refuses, or reads in its own way, are left to it", arguments: [
        // Not JSON, or not a submission.
        "", " ", "[]", "null", "{", body() + "x", body() + "{}", String(body().dropLast()),
        "{" + minimal + ", \"answers\": [],}", "{" + minimal + ", \"answers\": [1,]}",
        // Members missing, null where not allowed, or of the wrong type.
        "{\"survey_version\": 2, \"answers\": []}",
        body(#""answers": null"#), body(#""answers": [], "context": null"#), body(#""answers": [], "timings": null"#),
        body(#""answers": [{"answer": 1}]"#), body(#""answers": [{"question_id": null}]"#), body(#""answers": [{"question_id": 5}]"#),
        body(#""answers": {}"#), body(#""answers": [], "beep_id": "not-a-uuid"#), body(#""answers": [], "beep_id": 7"#),
        body(#""answers": [], "context": {"connection": "5g"}"#), body(#""answers": [], "context": {"impetus": "BUTTON"}"#),
        body(#""answers": [], "context": {"steps": 4.5}"#), body(#""answers": [], "context": {"steps": "4"}"#),
        body(#""answers": [], "context": {"location": {"latitude": 1, "longitude": 2}}"#),
        body(#""answers": [], "context": {"sound": {"average_db": 1}}"#),
        body(#""answers": [], "timings": [{"event": "blinked", "at": "2026-11-27T08:14:00Z"}]"#),
        body(#""answers": [], "timings": [{"event": "present"}]"#),
        body(#""answers": [], "presented_order": "a b""#), body(#""answers": [], "presented_order": [1]"#),
        "{\"idempotency_key\": \"k\", \"survey_version\": 2, \"started_at\": \"2026-11-27T08:14:00\", \"submitted_at\": \"2026-11-27T08:15:00Z\", \"answers\": []}",
        // Integers only as integer literals; numbers only finite and short.
        body(#""answers": []"#).replacingOccurrences(of: "\"survey_version\": 2", with: "\"survey_version\": 2.0"),
        body(#""answers": []"#).replacingOccurrences(of: "\"survey_version\": 2", with: "\"survey_version\": 99999999999999999999"),
        body(#""answers": [{"question_id": "a", "answer": 1e400}]"#),
        body(#""answers": [{"question_id": "a", "answer": 0.1000000000000000000000000000000000001}]"#),
        body(#""answers": [{"question_id": "a", "answer": 01}]"#), body(#""answers": [{"question_id": "a", "answer": .5}]"#),
        body(#""answers": [{"question_id": "a", "answer": +1}]"#), body(#""answers": [{"question_id": "a", "answer": 1.}]"#),
        body(#""answers": [{"question_id": "a", "answer": NaN}]"#),
        // Strings: escapes that may be read differently, control characters, invalid UTF-8 escapes.
        body(#""answers": [{"question_id": "a", "answer": "\ud800"}]"#), body(#""answers": [{"question_id": "a", "answer": "\udc00x"}]"#),
        body(#""answers": [{"question_id": "a", "answer": "\u0000"}]"#), body(#""answers": [{"question_id": "a", "answer": "\x"}]"#),
        body(#""answers": [{"question_id": "a", "answer": "\u12"}]"#), body("\"answers\": [{\"question_id\": \"a\", \"answer\": \"tab\there\"}]"),
        // A key given twice; nesting deeper than the quick reader goes.
        body(#""answers": [], "answers": []"#), body(#""answers": [{"question_id": "a", "answer": {"k": 1, "k": 2}}]"#),
        body(#""answers": [{"question_id": "a", "answer": "# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}]"),
        // Whitespace JSON does not allow.
        "\u{FEFF}" + body(), body().replacingOccurrences(of: ", ", with: ",\u{0B}"),
    ])
    func leftToJSONDecoder(body: String) {
        #expect(!Self.expectAgreement(body), "read quickly: \(body)")
    }

    /// A body whose one answer is the number literal `literal`.
    private static func numberBody(_ literal: String) -> String {
        body(#""answers": [{"question_id": "a", "answer": "# + literal + "}]")
    }

    @Test("zeros JSONDecoder reads are read quickly; underflows, zeros with exponents and subnormals are left to it")
    func zerosAndTinyNumbers() {
        for literal in ["0", "-0", "0.0", "-0.000", "0.5", "-2.2250738585072014e-308", "1e-300"] {
            #expect(Self.expectAgreement(Self.numberBody(literal)), "not read quickly: \(literal)")
        }
        for literal in ["1e-400", "-1e-330", "2.4e-324", "5e-324", "1e-310", "0e5", "-0.0e-5", "0e-1", "1.8e308"] {
            #expect(!Self.expectAgreement(Self.numberBody(literal)), "read quickly: \(literal)")
        }
    }

    /// Number literals of every size a double has and beyond: the quick reading agrees with
    /// `JSONDecoder` or gives up. Seeded and bounded in count.
    @Test("number literals near every exponent: the quick reading agrees with JSONDecoder or gives up")
    func numberLiterals() {
        var generator = Xoshiro256StarStar(seed: 5)
        var quick = 0
        for _ in 0..<2_000 {
            let sign = Bool.random(using: &generator) ? "-" : ""
            let whole = Bool.random(using: &generator) ? "0" : String(Int.random(in: 1...999_999, using: &generator))
            let fraction = Bool.random(using: &generator) ? "" : "." + String(Int.random(in: 0...999_999_999, using: &generator))
            let exponent = Bool.random(using: &generator) ? "" : "e" + String(Int.random(in: -420...420, using: &generator))
            if Self.expectAgreement(Self.numberBody(sign + whole + fraction + exponent)) { quick += 1 }
        }
        #expect(quick > 1_000)
    }

    @Test("bytes that are not UTF-8 inside a string are left to JSONDecoder")
    func invalidUTF8() {
        var bytes = Array(Self.body(#""answers": [{"question_id": "a", "answer": "xy"}]"#).utf8)
        let x = bytes.firstIndex(of: UInt8(ascii: "x"))!
        bytes[x] = 0xC3
        bytes[x + 1] = 0x28
        #expect(bytes.withUnsafeBytes { ResponseSubmission.quickDecoded(from: $0) } == nil)
    }

    /// Mutations of ordinary bodies, a byte at a time: whatever `JSONDecoder` makes of each, the
    /// quick reading agrees or gives up. Seeded and bounded in count.
    @Test("mutated bodies: the quick reading agrees with JSONDecoder or gives up")
    func mutatedBodies() throws {
        let encoder = WireCoding.makeEncoder()
        let bodies = try Self.ordinarySubmissions().prefix(12).map { Array(try encoder.encode($0)) }
        let alphabet = Array(#"{}[]",:0123456789.-+eEtrufalsn\ u"#.utf8) + [0x00, 0x0A, 0x7F, 0xC3, 0xFF]
        var generator = Xoshiro256StarStar(seed: 11)
        var quick = 0, refused = 0
        for round in 0..<3_000 {
            var bytes = bodies[round % bodies.count]
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(alphabet.randomElement(using: &generator)!, at: at)
                case 2: bytes[at] = alphabet.randomElement(using: &generator)!
                default: bytes.removeSubrange(at...)
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "{")] }
            }
            let quickReading = bytes.withUnsafeBytes { ResponseSubmission.quickDecoded(from: $0) }
            let decoded = try? WireCoding.makeDecoder().decode(ResponseSubmission.self, from: Data(bytes))
            if decoded == nil { refused += 1 }
            guard let quickReading else { continue }
            quick += 1
            #expect(quickReading == decoded, "differs for \(String(decoding: bytes, as: UTF8.self))")
        }
        // Both kinds occurred, so the comparison above was exercised both ways.
        #expect(quick > 100)
        #expect(refused > 1_000)
    }
}

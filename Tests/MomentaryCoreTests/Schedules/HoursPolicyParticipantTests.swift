import Foundation
import Testing
@testable import MomentaryCore

/// The participant side of hours policies: `StudySignallingRules.participantSettings(for:)`, which
/// the server calls at registration and `PUT /api/v1/settings`.
@Suite("Hours policy: a participant's settings")
struct HoursPolicyParticipantTests {
    static func time(_ text: String) -> TimeOfDay { TimeOfDay(text)! }

    static let participant = HoursPolicyStudyRulesTests.rules()
    static let fixed = HoursPolicyStudyRulesTests.rules(.fixed, preset: ("09:00", "17:00"))
    static let bounded = HoursPolicyStudyRulesTests.rules(.bounded, bounds: ("07:00", "23:00"), window: 480)
    static let night = HoursPolicyStudyRulesTests.rules(.bounded, bounds: ("20:00", "08:00"), window: 360, preset: ("22:00", "06:00"))

    static func request(_ beeps: Int = 3, _ start: String? = nil, _ end: String? = nil, sound: String? = nil) -> SignallingSettingsRequest {
        SignallingSettingsRequest(beepsPerDay: beeps, start: start.map(time), end: end.map(time), sound: sound)
    }

    /// "08:00–22:00" when accepted, else the refusal.
    static func outcome(_ rules: StudySignallingRules, _ request: SignallingSettingsRequest) -> Result<String, ParticipantSettingsProblem> {
        do throws(ParticipantSettingsProblem) {
            let settings = try rules.participantSettings(for: request)
            #expect(settings.beepsPerDay == request.beepsPerDay)
            return .success("\(settings.start)–\(settings.end)")
        } catch {
            return .failure(error)
        }
    }

    static func refusal(_ rules: StudySignallingRules, _ request: SignallingSettingsRequest) -> ParticipantSettingsProblem? {
        if case .failure(let problem) = outcome(rules, request) { problem } else { nil }
    }

    @Test("Rules for the tests are usable studies")
    func studiesAreUsable() {
        for rules in [Self.participant, Self.fixed, Self.bounded, Self.night] {
            #expect(rules.problems().isEmpty, "\(rules.problems())")
        }
    }

    @Test("Participants who choose must send both hours, and get what they sent")
    func participantChooses() throws {
        #expect(Self.outcome(Self.participant, Self.request(3, "08:00", "22:00")) == .success("08:00–22:00"))
        #expect(Self.outcome(Self.participant, Self.request(2, "22:00", "06:00")) == .success("22:00–06:00"))
        let noStart = try #require(Self.refusal(Self.participant, Self.request(3, nil, "22:00")))
        #expect(noStart == ParticipantSettingsProblem(field: "start", reason: .hoursRequired,
                                                      message: "The start of the hours is missing; send start as HH:MM on a quarter hour."))
        #expect(Self.refusal(Self.participant, Self.request(3, "08:00"))?.field == "end")
        #expect(Self.refusal(Self.participant, Self.request(3))?.field == "start")
    }

    @Test("Fixed hours are filled in when left out, accepted when equal, refused when different")
    func fixedHours() throws {
        #expect(Self.outcome(Self.fixed, Self.request(3)) == .success("09:00–17:00"))
        #expect(Self.outcome(Self.fixed, Self.request(3, "09:00", "17:00")) == .success("09:00–17:00"))
        #expect(Self.outcome(Self.fixed, Self.request(3, "09:00")) == .success("09:00–17:00"))
        #expect(Self.outcome(Self.fixed, Self.request(3, nil, "17:00")) == .success("09:00–17:00"))
        let other = try #require(Self.refusal(Self.fixed, Self.request(3, "08:00", "17:00")))
        #expect(other == ParticipantSettingsProblem(field: "start", reason: .hoursFixed, message:
            "This study's hours are the same for everyone, 09:00–17:00; leave out start or send 09:00, not 08:00."))
        #expect(Self.refusal(Self.fixed, Self.request(3, nil, "18:00"))?.field == "end")
        // The sound and the beeps are still the participant's.
        let settings = try Self.fixed.participantSettings(for: Self.request(5, sound: "chime"))
        #expect(settings == SignallingSettings(beepsPerDay: 5, start: Self.time("09:00"), end: Self.time("17:00"), sound: "chime"))
    }

    @Test("Bounded hours: within the bounds, at least the minimum window; the message names what would do")
    func boundedHours() throws {
        #expect(Self.outcome(Self.bounded, Self.request(3, "07:00", "23:00")) == .success("07:00–23:00"))
        #expect(Self.outcome(Self.bounded, Self.request(3, "07:00", "15:00")) == .success("07:00–15:00"))
        #expect(Self.outcome(Self.bounded, Self.request(3, "15:00", "23:00")) == .success("15:00–23:00"))

        let early = try #require(Self.refusal(Self.bounded, Self.request(3, "06:45", "22:00")))
        #expect(early == ParticipantSettingsProblem(field: "start", reason: .outsideBounds, message:
            "This study's hours lie within 07:00–23:00 and last at least 8 h; choose a start from 07:00 to 15:00, not 06:45."))
        let late = try #require(Self.refusal(Self.bounded, Self.request(3, "08:00", "23:15")))
        #expect(late == ParticipantSettingsProblem(field: "end", reason: .outsideBounds, message:
            "This study's hours lie within 07:00–23:00 and last at least 8 h; choose an end from 16:00 to 23:00, not 23:15."))
        let short = try #require(Self.refusal(Self.bounded, Self.request(3, "09:00", "16:45")))
        #expect(short == ParticipantSettingsProblem(field: "end", reason: .windowTooShort, message:
            "This study's hours lie within 07:00–23:00 and last at least 8 h; choose an end from 17:00 to 23:00, not 16:45."))
        // A start after 15:00 leaves no end that makes 8 hours before 23:00.
        let tooLate = try #require(Self.refusal(Self.bounded, Self.request(3, "16:00", "23:00")))
        #expect(tooLate.field == "start" && tooLate.reason == .windowTooShort)
        // Hours across midnight in daytime bounds: the end after midnight is past the latest end.
        #expect(Self.refusal(Self.bounded, Self.request(3, "10:00", "01:00"))?.field == "end")
        #expect(Self.refusal(Self.bounded, Self.request(3, "20:00", "02:00"))?.field == "start")
    }

    @Test("Bounds across midnight hold hours before, across and after midnight")
    func boundsAcrossMidnight() throws {
        #expect(Self.outcome(Self.night, Self.request(3, "22:00", "06:00")) == .success("22:00–06:00"))
        #expect(Self.outcome(Self.night, Self.request(3, "20:00", "02:00")) == .success("20:00–02:00"))
        #expect(Self.outcome(Self.night, Self.request(3, "00:00", "08:00")) == .success("00:00–08:00"))
        #expect(Self.outcome(Self.night, Self.request(3, "02:00", "08:00")) == .success("02:00–08:00"))
        let daytime = try #require(Self.refusal(Self.night, Self.request(3, "12:00", "20:00")))
        #expect(daytime.message
            == "This study's hours lie within 20:00–08:00 and last at least 6 h; choose a start from 20:00 to 02:00, not 12:00.")
        let pastEnd = try #require(Self.refusal(Self.night, Self.request(3, "22:00", "09:00")))
        #expect(pastEnd.field == "end" && pastEnd.reason == .outsideBounds)
        #expect(pastEnd.message.hasSuffix("choose an end from 04:00 to 08:00, not 09:00."))
        #expect(Self.refusal(Self.night, Self.request(3, "03:00", "08:00"))?.reason == .windowTooShort)
    }

    @Test("The settings' own rules keep their words and name their field")
    func settingsRules() throws {
        let range = try #require(Self.refusal(Self.participant, Self.request(6, "08:00", "22:00")))
        #expect(range == ParticipantSettingsProblem(field: "beeps_per_day", reason: .beepsOutOfRange,
                                                    message: "This study asks for 1 to 5 beeps a day, not 6."))
        // Beeps a day come first, even where the hours are fixed.
        #expect(Self.refusal(Self.fixed, Self.request(0))?.reason == .beepsOutOfRange)
        let quarter = try #require(Self.refusal(Self.bounded, Self.request(3, "06:50", "22:00")))
        #expect(quarter.field == "start" && quarter.reason == .notOnQuarterHour)
        #expect(quarter.message == "the start time 06:50 is not on a quarter hour; use :00, :15, :30 or :45")
        let same = try #require(Self.refusal(Self.participant, Self.request(3, "09:00", "09:00")))
        #expect(same.field == "end" && same.reason == .sameStartAndEnd)
        let crowded = try #require(Self.refusal(Self.participant, Self.request(5, "08:00", "12:00")))
        #expect(crowded.field == nil && crowded.reason == .doesNotFit)
        #expect(crowded.message.hasPrefix("5 beeps a day with at least 60 minutes between them do not fit in 3 h 50 min"))
    }

    @Test("Bounds and the window are checked before the beeps fit; the beeps still have to fit")
    func boundsBeforeFit() throws {
        // 07:00–12:00 is both too short for 8 hours and too short for 5 beeps an hour apart.
        #expect(Self.refusal(Self.bounded, Self.request(5, "07:00", "12:00"))?.reason == .windowTooShort)
        let roomy = HoursPolicyStudyRulesTests.rules(.bounded, bounds: ("07:00", "23:00"), window: 195)
        #expect(roomy.problems().isEmpty)
        #expect(Self.outcome(roomy, Self.request(3, "10:00", "13:15")) == .success("10:00–13:15"))
        #expect(Self.refusal(roomy, Self.request(5, "08:00", "12:00"))?.reason == .doesNotFit)
    }

    @Test("A problem's field as a JSON path under the request's settings")
    func paths() {
        let start = ParticipantSettingsProblem(field: "start", reason: .hoursRequired, message: "")
        let whole = ParticipantSettingsProblem(field: nil, reason: .doesNotFit, message: "")
        #expect(start.path(under: "settings") == "settings.start")
        #expect(start.path(under: nil) == "start")
        #expect(whole.path(under: "settings") == "settings")
        #expect(whole.path(under: nil) == nil)
    }
}

import Foundation
import Testing
@testable import MomentaryCore

/// The study side of hours policies: `StudySignallingRules.problems()`, which the website,
/// `studies import` and the schedule preview call.
@Suite("Hours policy: the study's rules")
struct HoursPolicyStudyRulesTests {
    static func time(_ text: String) -> TimeOfDay { TimeOfDay(text)! }

    /// 1 to 5 beeps a day (preset 3), 60 minutes apart, preset hours 08:00–22:00.
    static func rules(
        _ policy: HoursPolicy = .participant, bounds: (String, String)? = nil, window: Int? = nil,
        preset: (String, String) = ("08:00", "22:00"), beeps: (min: Int, max: Int, default: Int) = (1, 5, 3), gap: Int = 60
    ) -> StudySignallingRules {
        StudySignallingRules(
            minBeepsPerDay: beeps.min, maxBeepsPerDay: beeps.max, defaultBeepsPerDay: beeps.default, minimumGapMinutes: gap,
            defaultStart: time(preset.0), defaultEnd: time(preset.1), hoursPolicy: policy,
            earliestStart: bounds.map { time($0.0) }, latestEnd: bounds.map { time($0.1) }, minimumWindowMinutes: window)
    }

    static func fields(_ rules: StudySignallingRules) -> [StudySignallingRules.Field] { rules.problems().map(\.field) }

    @Test("Existing callers get today's behaviour: participants choose any hours")
    func participantIsTheDefault() {
        let rules = StudySignallingRules(minBeepsPerDay: 1, maxBeepsPerDay: 5, defaultBeepsPerDay: 3, minimumGapMinutes: 60,
                                         defaultStart: Self.time("08:00"), defaultEnd: Self.time("22:00"))
        #expect(rules.hoursPolicy == .participant)
        #expect(rules.earliestStart == nil && rules.latestEnd == nil && rules.minimumWindowMinutes == nil)
        #expect(rules.problems().isEmpty)
    }

    @Test("Field names are the study document's")
    func fieldNames() {
        let names = StudySignallingRules.Field.allCases.map(\.rawValue)
        #expect(names.suffix(4) == ["hours_policy", "earliest_start", "latest_end", "minimum_window_minutes"])
        #expect(HoursPolicy.allCases.map(\.rawValue) == ["participant", "bounded", "fixed"])
    }

    @Test("A misspelt policy is refused with the three that exist")
    func unknownPolicy() throws {
        #expect(try JSONDecoder().decode([HoursPolicy].self, from: Data(#"["fixed"]"#.utf8)) == [.fixed])
        do {
            _ = try JSONDecoder().decode([HoursPolicy].self, from: Data(#"["everyone"]"#.utf8))
            Issue.record("“everyone” should be refused")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == "The hours policy must be one of participant, bounded, fixed, not “everyone”.")
        }
    }

    @Test("Bounds and a minimum window are refused by name unless the hours are bounded",
          arguments: [HoursPolicy.participant, .fixed])
    func boundsOnlyWhenBounded(policy: HoursPolicy) {
        let rules = Self.rules(policy, bounds: ("07:00", "23:00"), window: 480)
        #expect(Self.fields(rules) == [.earliestStart, .latestEnd, .minimumWindow])
        let why = policy == .fixed ? "The hours are fixed" : "Participants choose any hours"
        #expect(rules.problems().first?.message
            == "\(why), so an earliest start does not apply; remove it, or bound the hours (hours_policy bounded).")
        var onlyWindow = Self.rules(policy)
        onlyWindow.minimumWindowMinutes = 60
        #expect(Self.fields(onlyWindow) == [.minimumWindow])
    }

    @Test("Bounded hours need all three fields, each named")
    func boundedNeedsItsFields() {
        let problems = Self.rules(.bounded).problems()
        #expect(problems.map(\.field) == [.earliestStart, .latestEnd, .minimumWindow])
        #expect(problems.map(\.message) == [
            "Bounded hours need an earliest start; give it as HH:MM on a quarter hour.",
            "Bounded hours need a latest end; give it as HH:MM on a quarter hour.",
            "Bounded hours need a minimum window; give the shortest hours, in minutes, a participant may choose.",
        ])
        #expect(Self.rules(.bounded, bounds: ("07:00", "23:00"), window: 480).problems().isEmpty)
    }

    @Test("Bounds on quarter hours, and different; across midnight they are fine")
    func boundsThemselves() {
        #expect(Self.rules(.bounded, bounds: ("07:10", "23:00"), window: 480).problems().map(\.message)
            == ["The earliest start must be on a quarter hour (:00, :15, :30 or :45), not 07:10."])
        #expect(Self.fields(Self.rules(.bounded, bounds: ("07:00", "22:59"), window: 480)) == [.latestEnd])
        #expect(Self.rules(.bounded, bounds: ("08:00", "08:00"), window: 480).problems().map(\.message) == [
            "The latest end must differ from the earliest start (08:00); an end earlier than the start bounds hours across midnight.",
        ])
        let night = Self.rules(.bounded, bounds: ("20:00", "08:00"), window: 360, preset: ("22:00", "06:00"))
        #expect(night.problems().isEmpty)
    }

    @Test("The minimum window: whole quarter hours, within the bounds")
    func minimumWindow() {
        for window in [0, -15, 100, 1455] {
            #expect(Self.rules(.bounded, bounds: ("07:00", "23:00"), window: window).problems().map(\.message)
                == ["The minimum window must be a whole number of quarter hours (15, 30, 45 … minutes), not \(window)."])
        }
        let tooLong = Self.rules(.bounded, bounds: ("09:00", "17:00"), window: 540, preset: ("09:00", "17:00"))
        #expect(tooLong.problems().map(\.message)
            == ["A minimum window of 9 h does not fit in the bounds 09:00–17:00 (8 h); shorten it or widen the bounds."])
        // The whole bounds is a valid minimum: participants then all get the bounds.
        #expect(Self.rules(.bounded, bounds: ("09:00", "17:00"), window: 480, preset: ("09:00", "17:00")).problems().isEmpty)
    }

    @Test("The preset hours must be hours a participant could choose")
    func presetWithinBounds() {
        let early = Self.rules(.bounded, bounds: ("08:30", "23:00"), window: 480)
        #expect(early.problems().map(\.field) == [.defaultStart])
        #expect(early.problems().first?.message
            == "The preset hours 08:00–22:00 reach outside the bounds 08:30–23:00; choose preset hours within them.")
        #expect(Self.fields(Self.rules(.bounded, bounds: ("07:00", "21:45"), window: 480)) == [.defaultEnd])
        let short = Self.rules(.bounded, bounds: ("07:00", "23:00"), window: 600, preset: ("08:00", "17:00"))
        #expect(short.problems().map(\.field) == [.defaultEnd])
        #expect(short.problems().first?.message
            == "The preset hours 08:00–17:00 last 9 h, less than the minimum window of 10 h; lengthen them or shorten the minimum window.")
        // Daytime presets lie outside night-time bounds; the start has to move.
        let night = Self.rules(.bounded, bounds: ("20:00", "08:00"), window: 360)
        #expect(night.problems().map(\.field) == [.defaultStart])
    }

    @Test("The preset beeps a day must fit the minimum window, so keeping the preset is never refused")
    func presetBeepsFitTheWindow() {
        // 3 beeps 120 minutes apart need 360 minutes plus the 10-minute margin: 375 in quarter hours.
        let rules = Self.rules(.bounded, bounds: ("07:00", "23:00"), window: 360, gap: 120)
        #expect(rules.problems().map(\.field) == [.minimumWindow])
        #expect(rules.problems().first?.message
            == "With the preset of 3 beeps a day at least 120 minutes apart, hours of 6 h are too short (beeps stop "
            + "10 minutes before the end); raise the minimum window to at least 375 minutes, or lower the preset beeps a day or the gap.")
        #expect(Self.rules(.bounded, bounds: ("07:00", "23:00"), window: 375, gap: 120).problems().isEmpty)
        // The most beeps need not fit the minimum window: a participant who wants 5 chooses longer hours.
        #expect(Self.rules(.bounded, bounds: ("07:00", "23:00"), window: 375, beeps: (1, 5, 3), gap: 120).problems().isEmpty)
    }

    @Test("The most beeps must fit the longest hours a participant can have: a day, the bounds, or the fixed hours")
    func mostBeepsFitTheLongestHours() {
        // 5 beeps 120 minutes apart: 600 minutes fit in a day and in 07:00–23:00, not in 08:00–16:00.
        let preset = ("08:00", "16:00")
        #expect(Self.rules(.participant, preset: preset, beeps: (1, 5, 2), gap: 120).problems().isEmpty)
        let fixed = Self.rules(.fixed, preset: preset, beeps: (1, 5, 2), gap: 120)
        #expect(fixed.problems().map(\.field) == [.minimumGap])
        #expect(fixed.problems().first?.message
            == "5 beeps a day at least 120 minutes apart do not fit in the study's hours 08:00–16:00 (beeps stop 10 minutes "
            + "before the end); lower the most beeps a day or the gap, or lengthen the hours.")
        #expect(Self.rules(.fixed, preset: preset, beeps: (1, 3, 2), gap: 120).problems().isEmpty)
        let bounded = Self.rules(.bounded, bounds: ("08:00", "16:00"), window: 255, preset: preset, beeps: (1, 5, 2), gap: 120)
        #expect(bounded.problems().map(\.message) == [
            "5 beeps a day at least 120 minutes apart do not fit in the bounds 08:00–16:00 (beeps stop 10 minutes "
                + "before the end); lower the most beeps a day or the gap, or widen the bounds.",
        ])
        // Today's message for participants who choose is unchanged.
        #expect(Self.rules(beeps: (1, 5, 2), gap: 300).problems().map(\.message)
            == ["5 beeps a day at least 300 minutes apart do not fit in a day; lower the most beeps a day or the gap."])
    }

    @Test("Fixed hours are the preset hours, checked as presets always were")
    func fixedHoursArePresets() {
        #expect(Self.rules(.fixed).problems().isEmpty)
        #expect(Self.rules(.fixed, preset: ("22:00", "06:00")).problems().isEmpty)
        #expect(Self.fields(Self.rules(.fixed, preset: ("08:00", "08:00"))) == [.defaultEnd])
        #expect(Self.fields(Self.rules(.fixed, preset: ("08:05", "22:00"))) == [.defaultStart])
    }
}

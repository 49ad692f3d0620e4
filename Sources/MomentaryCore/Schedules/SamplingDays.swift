import Foundation

/// The days on which a study samples at random, as ranges of days counted from registration:
/// measurement bursts such as days 1–7, 91–97 and 181–187 (`sampling_days` in a study document).
///
/// Day 1 is the registration day itself, as in the study end's days per participant, because
/// researchers number burst days that way. Fixed rules (`relative`, `startDay`) count that day as
/// day 0; both conventions are documented side by side in docs/schedules.md. A study without
/// `sampling_days` samples every day, so the planner reads an absent value as every day
/// (`samplingDays?.includes(…) ?? true`). The study end applies on top of these days.
public struct SamplingDays: Sendable, Hashable {
    /// Days `fromDay` to `toDay`, both included.
    public struct DayRange: Sendable, Hashable {
        public var fromDay: Int
        public var toDay: Int

        public init(fromDay: Int, toDay: Int) {
            self.fromDay = fromDay
            self.toDay = toDay
        }

        /// Whether the range is usable at all; the others are reported by `problems()` and never match a day.
        var isOrdered: Bool { fromDay <= toDay }

        func contains(_ dayNumber: Int) -> Bool { fromDay <= dayNumber && dayNumber <= toDay }
    }

    /// Ten years of days, above `StudyEnd.maximumDays`, so that any study end can be covered.
    public static let maximumDay = 3660
    /// Enough for a burst every five weeks for ten years.
    public static let maximumRanges = 100

    /// Sorted by first day, so the same bursts listed in another order are equal and are written
    /// back in order.
    public let ranges: [DayRange]

    public init(_ ranges: [DayRange]) {
        self.ranges = ranges.sorted { ($0.fromDay, $0.toDay) < ($1.fromDay, $1.toDay) }
    }

    /// The number of `day` for a participant registered on `registeredOn`: 1 on the registration
    /// date, 0 the day before.
    public static func dayNumber(of day: LocalDate, registeredOn: LocalDate) -> Int {
        registeredOn.days(until: day) + 1
    }

    /// Whether the participant is sampled on their local date `day`.
    public func includes(_ day: LocalDate, registeredOn: LocalDate) -> Bool {
        let number = Self.dayNumber(of: day, registeredOn: registeredOn)
        return ranges.contains { $0.contains(number) }
    }

    /// The first sampled date on or after `date`, so a planner can skip the days between bursts;
    /// `nil` once the last range is over.
    public func firstSampledDay(onOrAfter date: LocalDate, registeredOn: LocalDate) -> LocalDate? {
        let number = Self.dayNumber(of: date, registeredOn: registeredOn)
        let first = ranges.filter { $0.isOrdered && $0.toDay >= number }.map { max($0.fromDay, number) }.min()
        return first.map { registeredOn.adding(days: $0 - 1) }
    }

    /// Every reason the ranges cannot be used, one sentence each naming `sampling_days`; empty
    /// when usable. With a study end, ranges that start after its days per participant are
    /// reported too, since they would never be sampled.
    public func problems(studyEnd: StudyEnd = StudyEnd()) -> [String] {
        guard !ranges.isEmpty else {
            return [#"sampling_days is empty; leave it out to sample every day, or list ranges such as {"from_day": 1, "to_day": 7}"#]
        }
        var problems: [String] = []
        if ranges.count > Self.maximumRanges {
            problems.append("sampling_days lists \(ranges.count) ranges; at most \(Self.maximumRanges) are allowed")
        }
        let days = 1...Self.maximumDay
        for range in ranges {
            if !days.contains(range.fromDay) || !days.contains(range.toDay) {
                problems.append("sampling_days: days \(range.fromDay) to \(range.toDay) must lie within day 1 "
                    + "(the registration day) and day \(Self.maximumDay)")
            } else if !range.isOrdered {
                problems.append("sampling_days: from_day \(range.fromDay) is after to_day \(range.toDay)")
            } else if let last = studyEnd.daysAfterRegistration, range.fromDay > last {
                problems.append("sampling_days: days \(range.fromDay) to \(range.toDay) start after the study ends "
                    + "on day \(last) (ends_after_days), so they would never be sampled")
            }
        }
        // Sorted by first day, a range overlaps an earlier one exactly when it starts on or before
        // the furthest day reached so far.
        var furthest: DayRange?
        for range in ranges where range.isOrdered {
            if let earlier = furthest, range.fromDay <= earlier.toDay {
                problems.append("sampling_days: days \(earlier.fromDay) to \(earlier.toDay) and days \(range.fromDay) "
                    + "to \(range.toDay) overlap; list each day in one range only")
            }
            if range.toDay > furthest?.toDay ?? .min { furthest = range }
        }
        return problems
    }
}

/// The study document's form, a list of `{"from_day": 1, "to_day": 7}`. Decoding reads the shape
/// only, refusing unknown fields by name; `problems()` judges the values.
extension SamplingDays: Codable {
    public init(from decoder: Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([DayRange].self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(ranges)
    }
}

extension SamplingDays.DayRange: Codable {
    private enum CodingKeys: String, CodingKey {
        case fromDay = "from_day"
        case toDay = "to_day"
    }

    public init(from decoder: Decoder) throws {
        // A misspelt field would otherwise be dropped and the range read as something else.
        let all = try decoder.container(keyedBy: StrictJSONObject.Key.self)
        if let unknown = all.allKeys.first(where: { CodingKeys(rawValue: $0.stringValue) == nil }) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: all.codingPath + [unknown],
                debugDescription: "a range of sampling_days has only “from_day” and “to_day”, not “\(unknown.stringValue)”"))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fromDay = try container.decode(Int.self, forKey: .fromDay)
        toDay = try container.decode(Int.self, forKey: .toDay)
    }
}

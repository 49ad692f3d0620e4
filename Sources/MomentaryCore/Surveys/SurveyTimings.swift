import Foundation

/// Beiwe's device-side schedule of old-style studies: seven lists, Sunday first, of times as
/// seconds after local midnight. On the wire a plain array: `[[], [32400, 61200], [], …]`.
public struct SurveyTimings: Sendable, Hashable {
    public static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// Index 0 is Sunday, 6 Saturday; each value in `0..<86400`.
    public var secondsByWeekday: [[Int]]

    public init(secondsByWeekday: [[Int]]) {
        self.secondsByWeekday = secondsByWeekday
    }

    init(json: JSONValue) throws(SurveyFormatError) {
        let message = "“timings” must be a list of seven lists of whole seconds after midnight (Sunday first)"
        guard let days = json.arrayValue else {
            throw SurveyFormatError("\(message), found \(SurveyMessages.describe(json)).")
        }
        var result: [[Int]] = []
        for day in days {
            guard let values = day.arrayValue else {
                throw SurveyFormatError("\(message), found \(SurveyMessages.describe(day)) for a day.")
            }
            var seconds: [Int] = []
            for value in values {
                guard let number = value.numberValue, number == number.rounded(), abs(number) < 1e9 else {
                    throw SurveyFormatError("\(message), found \(SurveyMessages.describe(value)) as a time.")
                }
                seconds.append(Int(number))
            }
            result.append(seconds)
        }
        secondsByWeekday = result
    }

    var json: JSONValue {
        .array(secondsByWeekday.map { .array($0.map { .number(Double($0)) }) })
    }

    /// What is wrong with these timings, one message each.
    func issues() -> [String] {
        var issues: [String] = []
        if secondsByWeekday.count != 7 {
            issues.append("“timings” must have 7 lists, one per weekday from Sunday, but has \(secondsByWeekday.count).")
        }
        for (index, seconds) in secondsByWeekday.enumerated() {
            let day = index < 7 ? Self.weekdayNames[index] : "list \(index + 1)"
            for value in seconds where !(0..<86_400).contains(value) {
                issues.append("“timings” for \(day): \(value) is not a time of day in seconds (0–86399).")
            }
            if Set(seconds).count != seconds.count {
                issues.append("“timings” for \(day) lists the same time more than once.")
            }
        }
        return issues
    }
}

import Foundation

/// Burst days as the website's form writes them: "1-7, 91-97" (a lone number is one day).
extension SamplingDays {
    public var text: String {
        ranges.map { $0.fromDay == $0.toDay ? "\($0.fromDay)" : "\($0.fromDay)-\($0.toDay)" }.joined(separator: ", ")
    }

    /// Reads ranges typed as "1-7, 91-97"; empty text is nil (every day). A sentence for text that
    /// does not read; the ranges' own rules are `problems()`'s.
    public static func parse(_ text: String) -> (days: SamplingDays?, problem: String?) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return (nil, nil) }
        var ranges: [DayRange] = []
        for part in parts {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
                .map { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch bounds.count {
            case 1 where bounds[0] != nil:
                ranges.append(DayRange(fromDay: bounds[0]!, toDay: bounds[0]!))
            case 2 where bounds[0] != nil && bounds[1] != nil:
                ranges.append(DayRange(fromDay: bounds[0]!, toDay: bounds[1]!))
            default:
                return (nil, "Sampling days: “\(part.prefix(20))” is not a day or a range of days; write them like 1-7, 91-97.")
            }
        }
        return (SamplingDays(ranges), nil)
    }
}

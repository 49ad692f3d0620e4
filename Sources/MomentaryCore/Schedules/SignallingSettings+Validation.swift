import Foundation

extension SignallingSettings {
    /// Frequencies a participant may choose (Mappiness).
    public static let allowedBeepsPerDay = 1...24
    /// Beeps stop this long before the participant's end time, to allow for delivery delays.
    public static let deliveryMarginMinutes = 10

    /// Whether the hours run past midnight (e.g. 22:00–06:00 for a night shift).
    public var crossesMidnight: Bool { end <= start }

    /// Wall-clock minutes from the start to the end of the hours.
    public var hoursMinutes: Int { (end.minutes - start.minutes + 1440) % 1440 }

    /// Wall-clock minutes in which beeps may fall: the hours less the delivery margin.
    /// Days with a daylight-saving change are an hour (or half an hour) longer or shorter.
    public var usableMinutes: Int { hoursMinutes - Self.deliveryMarginMinutes }

    /// Checks the settings against the rules and the study's minimum gap between beeps.
    public func validate(minimumGapMinutes: Int) throws(SignallingSettingsError) {
        guard Self.allowedBeepsPerDay.contains(beepsPerDay) else {
            throw .beepsPerDayOutOfRange(beepsPerDay)
        }
        try validateHours()
        guard minimumGapMinutes >= 0 else { throw .negativeGap(minutes: minimumGapMinutes) }
        // Circular stars and bars needs n·g ≤ L (the wrap-around gap counts too).
        guard beepsPerDay * minimumGapMinutes <= usableMinutes else {
            throw .doesNotFit(
                beepsPerDay: beepsPerDay, gapMinutes: minimumGapMinutes,
                start: start, end: end, usableMinutes: usableMinutes)
        }
    }

    /// The hours alone: on quarter hours, and not empty. A study's bounds are checked after this.
    func validateHours() throws(SignallingSettingsError) {
        guard start.minutes % 15 == 0 else { throw .notOnQuarterHour(field: "start", time: start) }
        guard end.minutes % 15 == 0 else { throw .notOnQuarterHour(field: "end", time: end) }
        guard start != end else { throw .sameStartAndEnd(start) }
    }
}

/// One rule of a fixed schedule (Beiwe): weekly at a time (optionally within a date range), at
/// an absolute local date and time, or on a day counted from registration.
public enum FixedScheduleRule: Sendable, Hashable {
    case weekly(Weekly)
    case absolute(LocalDateTime)
    /// Day N is the participant's local registration date plus N days (day 0 is that date).
    case relative(day: Int, time: TimeOfDay)

    public struct Weekly: Sendable, Hashable {
        public var days: [Weekday]
        public var time: TimeOfDay
        /// Inclusive range of dates on which the rule applies; `nil` means always.
        public var between: Range?

        public init(days: [Weekday], time: TimeOfDay, between: Range? = nil) {
            self.days = days
            self.time = time
            self.between = between
        }
    }

    /// An inclusive range of days, by calendar date or by days since registration.
    public enum Range: Sendable, Hashable {
        case dates(start: LocalDate, end: LocalDate)
        case registrationDays(start: Int, end: Int)

        /// First and last local date for a participant registered on `registeredOn`.
        func localDates(registeredOn: LocalDate) -> (first: LocalDate, last: LocalDate) {
            switch self {
            case .dates(let start, let end):
                (start, end)
            case .registrationDays(let start, let end):
                (registeredOn.adding(days: start), registeredOn.adding(days: end))
            }
        }
    }
}

/// One rule of a fixed schedule (Beiwe): weekly at a time (optionally within a date range), at
/// an absolute local date and time, on a day counted from registration or from one of the
/// participant's dates (Beiwe's interventions), or every N days.
public enum FixedScheduleRule: Sendable, Hashable {
    case weekly(Weekly)
    case absolute(LocalDateTime)
    /// Day N is the participant's local registration date plus N days (day 0 is that date), or,
    /// with `to`, the participant's date of that name plus N days (N may be negative: the day
    /// before a surgery). A rule whose date the participant has not got plans nothing.
    case relative(day: Int, time: TimeOfDay, to: String? = nil)
    case everyDays(EveryDays)

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

    /// At a time on every `interval`-th day, counting from registration or from a date: that day
    /// itself, then `interval` days later, and so on (optionally within a range).
    public struct EveryDays: Sendable, Hashable {
        /// Up to a year apart: a longer cycle is better written as `absolute` or `relative` rules.
        public static let maximumInterval = 366

        public var interval: Int
        public var time: TimeOfDay
        public var from: Start
        /// Inclusive range of dates on which the rule applies; `nil` means always.
        public var between: Range?

        /// The first day of the cycle.
        public enum Start: Sendable, Hashable {
            /// The participant's local registration date (day 0).
            case registration
            /// The same calendar date for every participant, so all share one cycle.
            case date(LocalDate)
        }

        public init(interval: Int, time: TimeOfDay, from: Start, between: Range? = nil) {
            self.interval = interval
            self.time = time
            self.from = from
            self.between = between
        }

        /// The rule's dates within `from...through` for a participant registered on `registeredOn`.
        func dates(registeredOn: LocalDate, from first: LocalDate, through last: LocalDate) -> [LocalDate] {
            let start = switch from {
            case .registration: registeredOn
            case .date(let date): date
            }
            let bounds = between?.localDates(registeredOn: registeredOn)
            let lower = max(first, start, bounds?.first ?? first)
            let upper = min(last, bounds?.last ?? last)
            guard interval >= 1, lower <= upper else { return [] }
            // Round up to the first day of the cycle on or after `lower` (never before `start`).
            let skipped = (start.days(until: lower) + interval - 1) / interval
            return stride(from: skipped * interval, through: start.days(until: upper), by: interval)
                .map { start.adding(days: $0) }
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

import Foundation

/// When a study stops beeping a participant: on a date (in the participant's own calendar), or a
/// number of days after they registered, whichever comes first; never when neither is set. The
/// website, the planner, delivery and the app's status all read it here.
public struct StudyEnd: Sendable, Hashable {
    /// The last day beeps are sent, inclusive.
    public var lastDate: LocalDate?
    /// How many days, counting the day of registration, each participant is beeped.
    public var daysAfterRegistration: Int?

    public static let maximumDays = 3650

    public init(lastDate: LocalDate? = nil, daysAfterRegistration: Int? = nil) {
        self.lastDate = lastDate
        self.daysAfterRegistration = daysAfterRegistration
    }

    /// The last day a participant who registered on `registeredOn` is beeped, or nil for no end.
    public func lastDay(registeredOn: LocalDate?) -> LocalDate? {
        let byDays = daysAfterRegistration.flatMap { days in registeredOn.map { $0.adding(days: days - 1) } }
        switch (lastDate, byDays) {
        case let (date?, days?): return min(date, days)
        case let (date?, nil): return date
        case let (nil, days?): return days
        case (nil, nil): return nil
        }
    }

    /// Whether `day` is after the participant's last day.
    public func isOver(on day: LocalDate, registeredOn: LocalDate?) -> Bool {
        lastDay(registeredOn: registeredOn).map { day > $0 } ?? false
    }

    /// Reads the two settings as typed (empty for none), with a sentence for each that is wrong.
    public static func parse(lastDate text: String, days daysText: String) -> (end: StudyEnd, problems: [(field: String, message: String)]) {
        var end = StudyEnd()
        var problems: [(field: String, message: String)] = []
        let dateText = text.trimmingCharacters(in: .whitespaces)
        if !dateText.isEmpty {
            if let date = LocalDate(dateText) {
                end.lastDate = date
            } else {
                problems.append(("endsOn", "Study end: “\(dateText.prefix(40))” is not a date such as 2027-06-30."))
            }
        }
        let days = daysText.trimmingCharacters(in: .whitespaces)
        if !days.isEmpty {
            if let number = Int(days), (1...maximumDays).contains(number) {
                end.daysAfterRegistration = number
            } else {
                problems.append(("endsAfterDays", "Days per participant: “\(days.prefix(20))” is not a whole number from 1 to \(maximumDays)."))
            }
        }
        return (end, problems)
    }
}

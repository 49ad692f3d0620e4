import Foundation

/// Beeps from a fixed schedule document (Beiwe): the union of its rules, in the participant's
/// zone, with the same daylight-saving rules as `WallClock`.
public enum FixedSchedule {
    /// Sorted, unique instants of the beeps whose rule date lies in `from...through` (local dates).
    /// `dates` are the participant's named dates that relative rules may count from.
    public static func beeps(
        _ document: FixedScheduleDocument,
        registeredOn: LocalDate,
        dates: [String: LocalDate] = [:],
        timeZone: TimeZone,
        from: LocalDate,
        through: LocalDate
    ) -> [Date] {
        guard from <= through else { return [] }
        var instants = Set<Int>()
        for moment in localMoments(document, registeredOn: registeredOn, dates: dates, from: from, through: through) {
            instants.insert(WallClock.epochSeconds(on: moment.date, minuteOfDay: moment.time.minutes, in: timeZone))
        }
        return instants.sorted().map { Date(timeIntervalSince1970: Double($0)) }
    }

    /// Local dates and times named by the rules within the range (may repeat across rules).
    static func localMoments(
        _ document: FixedScheduleDocument, registeredOn: LocalDate, dates: [String: LocalDate] = [:],
        from: LocalDate, through: LocalDate
    ) -> [LocalDateTime] {
        var moments = [LocalDateTime]()
        for rule in document.rules {
            switch rule {
            case .weekly(let weekly):
                let bounds = weekly.between?.localDates(registeredOn: registeredOn)
                let first = max(from, bounds?.first ?? from)
                let last = min(through, bounds?.last ?? through)
                guard first <= last else { continue }
                for offset in 0...first.days(until: last) {
                    let date = first.adding(days: offset)
                    if weekly.days.contains(date.weekday) {
                        moments.append(LocalDateTime(date: date, time: weekly.time))
                    }
                }
            case .absolute(let moment):
                if (from...through).contains(moment.date) { moments.append(moment) }
            case .relative(let day, let time, let name):
                // A named date the participant has not got yet plans nothing until it is set.
                guard let start = name.map({ dates[$0] }) ?? registeredOn else { continue }
                let date = start.adding(days: day)
                if (from...through).contains(date) { moments.append(LocalDateTime(date: date, time: time)) }
            case .everyDays(let cycle):
                for date in cycle.dates(registeredOn: registeredOn, from: from, through: through) {
                    moments.append(LocalDateTime(date: date, time: cycle.time))
                }
            }
        }
        return moments
    }
}

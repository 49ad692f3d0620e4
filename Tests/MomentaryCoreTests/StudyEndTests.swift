import Foundation
import MomentaryCore
import Testing

@Suite("Study end")
struct StudyEndTests {
    @Test("the last day is the end date or the last of the participant's days, whichever is earlier")
    func lastDay() {
        let joined = LocalDate("2027-03-10")!
        #expect(StudyEnd().lastDay(registeredOn: joined) == nil)
        #expect(StudyEnd(lastDate: LocalDate("2027-04-01")).lastDay(registeredOn: joined) == LocalDate("2027-04-01"))
        #expect(StudyEnd(daysAfterRegistration: 1).lastDay(registeredOn: joined) == joined, "one day: the day of joining")
        #expect(StudyEnd(daysAfterRegistration: 28).lastDay(registeredOn: joined) == LocalDate("2027-04-06"))
        let both = StudyEnd(lastDate: LocalDate("2027-03-20"), daysAfterRegistration: 28)
        #expect(both.lastDay(registeredOn: joined) == LocalDate("2027-03-20"))
        #expect(!both.isOver(on: LocalDate("2027-03-20")!, registeredOn: joined))
        #expect(both.isOver(on: LocalDate("2027-03-21")!, registeredOn: joined))
    }

    @Test("typed settings are read, empty means none, and each mistake names its field")
    func parsing() {
        let none = StudyEnd.parse(lastDate: " ", days: "")
        #expect(none.end == StudyEnd() && none.problems.isEmpty)
        let set = StudyEnd.parse(lastDate: "2027-06-30", days: "14")
        #expect(set.end == StudyEnd(lastDate: LocalDate("2027-06-30"), daysAfterRegistration: 14) && set.problems.isEmpty)
        for (date, days, fields) in [("30/06/2027", "", ["endsOn"]), ("", "0", ["endsAfterDays"]),
                                     ("", "3651", ["endsAfterDays"]), ("2027-13-01", "two", ["endsOn", "endsAfterDays"])] {
            #expect(StudyEnd.parse(lastDate: date, days: days).problems.map(\.field) == fields, "\(date) \(days)")
        }
    }
}

import Foundation
import Testing
@testable import MomentaryCore

@Suite("Schedule preview")
struct SchedulePreviewTests {
    static let randomArguments = SchedulePreviewArguments(
        perDay: "3", hours: "08:00-20:00", minGap: "90", timezone: "Europe/London", from: "2026-03-25",
        days: "1000", seed: "7")

    func csv(_ arguments: SchedulePreviewArguments) throws -> [String] {
        var lines = [String]()
        SchedulePreview.writeCSV(try SchedulePreview.plan(arguments)) { lines.append($0) }
        return lines
    }

    func failure(_ arguments: SchedulePreviewArguments) -> String? {
        do {
            _ = try SchedulePreview.plan(arguments)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("Random preview: a header, then per-day rows whose local and UTC columns name the same instant")
    func randomRows() throws {
        let lines = try csv(Self.randomArguments)
        #expect(lines.first == "date,index,local,utc")
        let rows = lines.dropFirst().map { $0.split(separator: ",").map(String.init) }
        #expect(rows.count == 3_000)
        let parser = ISO8601DateFormatter()
        for (number, row) in rows.enumerated() {
            #expect(row.count == 4)
            #expect(row[1] == String(number % 3 + 1))
            #expect(row[2].hasPrefix(row[0] + "T"))
            #expect(row[3].hasSuffix("Z"))
            #expect(parser.date(from: row[2]) != nil && parser.date(from: row[2]) == parser.date(from: row[3]), "\(row)")
        }
        // London changes to summer time on 29 March 2026.
        #expect(rows.first { $0[0] == "2026-03-28" }?[2].hasSuffix("+00:00") == true)
        #expect(rows.first { $0[0] == "2026-03-29" }?[2].hasSuffix("+01:00") == true)
    }

    @Test("--window adds each beep's deadline, --reminders the reminders it would get: before the deadline and the hours' end")
    func windowAndReminders() throws {
        var arguments = SchedulePreviewArguments(
            perDay: "1", hours: "19:00-20:00", minGap: "0", timezone: "Europe/London", from: "2026-03-25",
            days: "200", seed: "11", window: "60", reminders: "5,45")
        let prompts = try SchedulePreview.prompts(arguments)
        var lines = [String]()
        SchedulePreview.writeCSV(try SchedulePreview.plan(arguments), prompts: prompts) { lines.append($0) }
        #expect(lines.first == "date,index,local,utc,expires_local,expires_utc,reminders_local")
        let parser = ISO8601DateFormatter()
        var counts = [Int: Int]()
        for row in lines.dropFirst().map({ $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }) {
            let beep = try #require(parser.date(from: row[3]))
            #expect(parser.date(from: row[5]) == beep.addingTimeInterval(3_600), "\(row)")
            let reminders = row[6].split(separator: ";").compactMap { parser.date(from: String($0)) }
            for reminder in reminders {
                let local = try #require(row[6].split(separator: ";").first { parser.date(from: String($0)) == reminder })
                #expect(local.dropFirst(11).prefix(5) < "20:00", "a reminder after the hours: \(row)")
            }
            #expect(reminders.first == beep.addingTimeInterval(300))
            counts[reminders.count, default: 0] += 1
        }
        // A beep after 19:15 leaves no room for the reminder at 45 minutes before 20:00.
        #expect(counts[1, default: 0] > 0 && counts[2, default: 0] > 0, "\(counts)")

        arguments.reminders = "5,90"
        #expect(throws: SchedulePreviewError.self) { try SchedulePreview.prompts(arguments) }
        do {
            _ = try SchedulePreview.prompts(arguments)
        } catch {
            #expect(error.description.hasPrefix("--reminders: A reminder 90 minutes after the beep falls outside the 60-minute answer window"))
        }
        arguments.reminders = nil
        arguments.window = "0"
        do {
            _ = try SchedulePreview.prompts(arguments)
            Issue.record("a window of 0 minutes was taken")
        } catch {
            #expect(error.description.hasPrefix("--window: The answer window must be 1 to 1440 minutes, not 0"))
        }
        // Without them, the preview is as before.
        #expect(try SchedulePreview.prompts(Self.randomArguments) == SchedulePreview.Prompts())
    }

    @Test("The same seed gives the same preview; another seed another")
    func reproducible() throws {
        var other = Self.randomArguments
        other.seed = "8"
        #expect(try csv(Self.randomArguments) == csv(Self.randomArguments))
        #expect(try csv(Self.randomArguments) != csv(other))
    }

    @Test("Without a seed a random one is chosen and reported in the plan")
    func randomSeed() throws {
        var arguments = Self.randomArguments
        arguments.seed = nil
        guard case .random(let first) = try SchedulePreview.plan(arguments),
              case .random(let second) = try SchedulePreview.plan(arguments)
        else { Issue.record("expected random plans"); return }
        #expect(first.seed != second.seed)
    }

    @Test("--sampling stratified puts one beep in each third of the hours, every day; uniform is the default")
    func stratifiedRows() throws {
        var arguments = Self.randomArguments
        arguments.days = "200"
        arguments.sampling = "stratified"
        guard case .random(let plan) = try SchedulePreview.plan(arguments) else {
            Issue.record("expected a random plan")
            return
        }
        #expect(plan.sampling == .stratified)
        let rows = try csv(arguments).dropFirst().map { $0.split(separator: ",").map(String.init) }
        #expect(rows.count == 600)
        // 08:00 to 19:50 is 42,600 seconds: blocks start at 08:00:00, 11:56:40 and 15:53:20.
        let blockStarts = [8 * 3600, 11 * 3600 + 56 * 60 + 40, 15 * 3600 + 53 * 60 + 20, 19 * 3600 + 50 * 60]
        for row in rows {
            let block = Int(row[1])! - 1
            let time = row[2].dropFirst(11).prefix(8).split(separator: ":").map { Int($0)! }
            let second = time[0] * 3600 + time[1] * 60 + time[2]
            #expect(second >= blockStarts[block] && second < blockStarts[block + 1], "\(row)")
        }
        arguments.sampling = nil
        guard case .random(let uniform) = try SchedulePreview.plan(arguments) else { return }
        #expect(uniform.sampling == .uniform)
        var explicit = arguments
        explicit.sampling = "uniform"
        #expect(try csv(explicit) == csv(arguments))
        arguments.sampling = "stratified"
        #expect(try csv(explicit) != csv(arguments))
    }

    @Test("Fixed preview from a rules file; --to is inclusive")
    func fixedRows() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("""
            {"rules": [{"weekly": {"days": ["mon","wed","fri"], "time": "09:45"},
                        "between": {"start": "2017-05-05", "end": "2017-05-15"}},
                       {"absolute": "2017-05-05T18:00"}, {"relative": {"day": 133, "time": "07:00"}}]}
            """.utf8).write(to: file)
        let lines = try csv(SchedulePreviewArguments(
            spec: file.path, registered: "2017-04-20", timezone: "America/Chicago", from: "2017-04-01",
            to: "2017-08-31"))
        #expect(lines == [
            "date,index,local,utc",
            "2017-05-05,1,2017-05-05T09:45:00-05:00,2017-05-05T14:45:00Z",
            "2017-05-05,2,2017-05-05T18:00:00-05:00,2017-05-05T23:00:00Z",
            "2017-05-08,1,2017-05-08T09:45:00-05:00,2017-05-08T14:45:00Z",
            "2017-05-10,1,2017-05-10T09:45:00-05:00,2017-05-10T14:45:00Z",
            "2017-05-12,1,2017-05-12T09:45:00-05:00,2017-05-12T14:45:00Z",
            "2017-05-15,1,2017-05-15T09:45:00-05:00,2017-05-15T14:45:00Z",
            "2017-08-31,1,2017-08-31T07:00:00-05:00,2017-08-31T12:00:00Z",
        ])
    }

    @Test("Streaming to a TextOutputStream writes one line per row")
    func textStream() throws {
        var arguments = Self.randomArguments
        arguments.days = "2"
        var output = ""
        SchedulePreview.writeCSV(try SchedulePreview.plan(arguments), to: &output)
        #expect(output.split(separator: "\n", omittingEmptySubsequences: false).count == 1 + 6 + 1)
        #expect(output.hasSuffix("\n"))
    }

    @Test("Bad option values give one clear line naming the option")
    func invalidOptions() throws {
        var arguments = Self.randomArguments
        arguments.timezone = "Europe/Londn"
        #expect(failure(arguments) == "--timezone “Europe/Londn” is not a known IANA time zone, e.g. Europe/London")
        arguments = Self.randomArguments
        arguments.to = "2026-04-01"
        #expect(failure(arguments) == "give either --days or --to, not both")
        arguments.days = nil
        arguments.to = nil
        #expect(failure(arguments)?.contains("give either --days") == true)
        arguments = Self.randomArguments
        arguments.hours = "8-20"
        #expect(failure(arguments)?.contains("--hours must be two times in HH:MM-HH:MM form") == true)
        arguments = Self.randomArguments
        arguments.hours = "08:00-12:00"
        #expect(failure(arguments)?.contains("3 beeps a day with at least 90 minutes between them do not fit") == true)
        arguments = Self.randomArguments
        arguments.from = "25/03/2026"
        #expect(failure(arguments)?.contains("--from must be a date in YYYY-MM-DD form") == true)
        arguments = Self.randomArguments
        arguments.spec = "/nonexistent/rules.json"
        #expect(failure(arguments) == "--per-day applies to random schedules and cannot be combined with --spec")
        arguments = SchedulePreviewArguments(
            spec: "/nonexistent/rules.json", registered: "2017-04-20", timezone: "UTC", from: "2017-04-01", days: "3")
        #expect(failure(arguments) == "--spec: cannot read “/nonexistent/rules.json”")
        arguments = Self.randomArguments
        arguments.sampling = "systematic"
        #expect(failure(arguments) == "--sampling must be uniform or stratified, not “systematic”")
        arguments = SchedulePreviewArguments(
            spec: "/nonexistent/rules.json", registered: "2017-04-20", timezone: "UTC", from: "2017-04-01", days: "3",
            sampling: "stratified")
        #expect(failure(arguments) == "--sampling applies to random schedules and cannot be combined with --spec")
        arguments = Self.randomArguments
        arguments.days = "0"
        #expect(failure(arguments)?.contains("--days must be from 1") == true)
        for message in [failure(Self.randomArguments)] { #expect(message == nil) }
    }
}

import Foundation
import MomentaryCore

/// How fast random (Mappiness) schedules are generated: participant-days per second over a mix
/// of settings, gaps and zones (including daylight-saving days), and, for comparison, the cost
/// of drawing the same random numbers alone with the same generator.
/// Prints one JSON object per line.
enum ScheduleBenchmark {
    struct Result: Sendable {
        var participantDays: Int
        var beeps: Int
        var seconds: Double
        var randomOnlySeconds: Double
    }

    /// A participant's settings, zone and gap, as the planner would see them.
    private struct Profile {
        var settings: SignallingSettings
        var gapMinutes: Int
        var zone: TimeZone
        /// Nominal window in seconds and the slack of its first draws, for the random-only run.
        var lengthSeconds: Int
        var slackSeconds: Int
    }

    private static let zones = [
        "Europe/London", "America/New_York", "America/Los_Angeles", "America/Sao_Paulo", "Europe/Berlin",
        "Asia/Kolkata", "Asia/Tokyo", "Australia/Sydney", "Australia/Lord_Howe", "UTC",
    ]
    private static let hours = [("08:00", "22:00"), ("07:00", "23:00"), ("09:00", "17:30"), ("22:00", "06:00")]
    private static let gaps = [30, 60, 90]

    @discardableResult
    static func run(participantDays: Int) -> Result {
        let profiles = makeProfiles()
        let firstDay = LocalDate(year: 2026, month: 1, day: 1)!
        // Two years of dates, so every zone's daylight-saving days are in the mix.
        func workload(_ index: Int) -> (Profile, LocalDate) {
            (profiles[index % profiles.count], firstDay.adding(days: index / profiles.count % 730))
        }

        // Warm up zone data and code paths before timing.
        _ = schedule(count: min(participantDays, 10_000), workload: workload)
        let clock = ContinuousClock()
        var beeps = 0
        let scheduleTime = clock.measure { beeps = schedule(count: participantDays, workload: workload) }
        var draws = 0
        var checksum = 0
        let randomTime = clock.measure {
            (draws, checksum) = drawOnly(count: participantDays, workload: workload)
        }

        let result = Result(
            participantDays: participantDays, beeps: beeps, seconds: seconds(scheduleTime),
            randomOnlySeconds: seconds(randomTime))
        print(#"{"benchmark":"schedule","participant_days":\#(participantDays),"beeps":\#(beeps),"#
            + #""profiles":\#(profiles.count),"seconds":\#(rounded(result.seconds)),"#
            + #""per_second":\#(Int(Double(participantDays) / result.seconds))}"#)
        print(#"{"benchmark":"schedule-random-only","participant_days":\#(participantDays),"draws":\#(draws),"#
            + #""seconds":\#(rounded(result.randomOnlySeconds)),"#
            + #""per_second":\#(Int(Double(participantDays) / result.randomOnlySeconds)),"checksum":\#(checksum)}"#)
        return result
    }

    /// Generates every participant-day's schedule; returns the number of beeps.
    private static func schedule(count: Int, workload: (Int) -> (Profile, LocalDate)) -> Int {
        var generator = Xoshiro256StarStar(seed: 2026)
        var beeps = 0
        for index in 0..<count {
            let (profile, date) = workload(index)
            do {
                beeps += try RandomSchedule.beeps(
                    on: date, settings: profile.settings, minimumGapMinutes: profile.gapMinutes,
                    timeZone: profile.zone, using: &generator
                ).count
            } catch {
                fatalError("benchmark profiles are valid: \(error)")
            }
        }
        return beeps
    }

    /// The same draws as `schedule` (n points and one phase per day), without the schedule.
    private static func drawOnly(count: Int, workload: (Int) -> (Profile, LocalDate)) -> (draws: Int, checksum: Int) {
        var generator = Xoshiro256StarStar(seed: 2026)
        var draws = 0
        var checksum = 0
        for index in 0..<count {
            let (profile, _) = workload(index)
            for _ in 0..<profile.settings.beepsPerDay {
                checksum &+= Int.random(in: 0...profile.slackSeconds, using: &generator)
            }
            checksum &+= Int.random(in: 0..<profile.lengthSeconds, using: &generator)
            draws += profile.settings.beepsPerDay + 1
        }
        return (draws, checksum)
    }

    private static func makeProfiles() -> [Profile] {
        var profiles = [Profile]()
        for zoneName in zones {
            let zone = TimeZone(identifier: zoneName)!
            for (start, end) in hours {
                for beeps in SignallingSettings.allowedBeepsPerDay {
                    for gap in gaps {
                        let settings = SignallingSettings(
                            beepsPerDay: beeps, start: TimeOfDay(start)!, end: TimeOfDay(end)!)
                        guard (try? settings.validate(minimumGapMinutes: gap)) != nil else { continue }
                        let length = settings.usableMinutes * 60
                        profiles.append(Profile(
                            settings: settings, gapMinutes: gap, zone: zone, lengthSeconds: length,
                            slackSeconds: length - beeps * gap * 60))
                    }
                }
            }
        }
        return profiles
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    private static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }
}

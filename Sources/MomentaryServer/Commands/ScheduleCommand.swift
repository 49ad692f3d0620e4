import ArgumentParser
import MomentaryCore

/// `momentary schedule preview`: the schedule engine without a server, for researchers checking a
/// protocol and for our own statistical checks. Prints CSV `date,index,local,utc`.
struct ScheduleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule", abstract: "Look at signalling schedules without a server.",
        subcommands: [Preview.self])

    struct Preview: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the beeps a random or fixed schedule produces, as CSV (date,index,local,utc).",
            discussion: """
                Random:  momentary schedule preview --per-day 3 --hours 08:00-20:00 --min-gap 90 \\
                           --timezone Europe/London --from 2026-03-25 --days 1000 --seed 7
                Fixed:   momentary schedule preview --spec rules.json --registered 2017-04-20 \\
                           --timezone America/Chicago --from 2017-04-01 --to 2017-08-31
                """)

        @ArgumentParser.Option(help: "Random beeps a day, 1 to 24 (default 2).") var perDay: String?
        @ArgumentParser.Option(help: "Signalling hours HH:MM-HH:MM, to the quarter hour (default 08:00-22:00).") var hours: String?
        @ArgumentParser.Option(help: "Minimum minutes between beeps (default 60).") var minGap: String?
        @ArgumentParser.Option(help: "Fixed schedule rules document (JSON); selects the fixed form.") var spec: String?
        @ArgumentParser.Option(help: "Registration date YYYY-MM-DD (day 0 of relative rules); with --spec.") var registered: String?
        @ArgumentParser.Option(help: "IANA time zone, e.g. Europe/London.") var timezone: String?
        @ArgumentParser.Option(help: "First local date, YYYY-MM-DD.") var from: String?
        @ArgumentParser.Option(help: "Number of days from --from.") var days: String?
        @ArgumentParser.Option(help: "Last local date, inclusive (instead of --days).") var to: String?
        @ArgumentParser.Option(help: "Seed of the random generator, so a preview can be reproduced.") var seed: String?
        @ArgumentParser.Option(help: "uniform or stratified: one beep in each equal block of the hours (default uniform).") var sampling: String?
        @ArgumentParser.Option(help: "Answer window in minutes (1 to 1440): adds each beep's deadline (expires_local, expires_utc).") var window: String?
        @ArgumentParser.Option(help: "Reminders, minutes after the beep (e.g. 5,10): adds the reminders each beep would get (reminders_local).") var reminders: String?

        func run() async throws {
            let arguments = SchedulePreviewArguments(
                perDay: perDay, hours: hours, minGap: minGap, spec: spec, registered: registered,
                timezone: timezone, from: from, days: days, to: to, seed: seed, sampling: sampling,
                window: window, reminders: reminders)
            let plan: SchedulePreview.Plan
            let prompts: SchedulePreview.Prompts
            do {
                plan = try SchedulePreview.plan(arguments)
                prompts = try SchedulePreview.prompts(arguments)
            } catch {
                throw CommandFailure.usage(error.description)
            }
            if case .random(let random) = plan, seed == nil {
                CommandOutput.error("momentary: random seed \(random.seed) (pass --seed \(random.seed) to repeat this preview)")
            }
            SchedulePreview.writeCSV(plan, prompts: prompts) { CommandOutput.line($0) }
        }
    }
}

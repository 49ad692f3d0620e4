import ArgumentParser
import Fluent
import Foundation

/// `momentary beep now --participant ID`: a researcher piloting a study beeps one participant at
/// once, through the same claim → push → record path as every beep, and sees the outcome.
struct BeepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beep", abstract: "Send beeps by hand.", subcommands: [Now.self])

    struct Now: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a test beep to one participant now (outside their hours too) and print the outcome.")

        @ArgumentParser.Option(help: ArgumentHelp(ParticipantLookup.help))
        var participant: String

        @OptionGroup var data: DataOptions

        func validate() throws {
            try ParticipantLookup.validate(participant)
        }

        func run() async throws {
            let configuration = try data.loadConfiguration()
            try await AppFactory.withApp(configuration) { app in
                try await ServeCommand.prepareDatabase(app, configuration)
                let participantID = try await ParticipantLookup.find(participant, on: app.db).requireID()
                try app.signalling.install(configuration: configuration)
                guard let dispatcher = app.signalling.dispatcher else { return }
                let result: Result<TestBeepReport, any Error>
                do {
                    result = .success(try await dispatcher.sendTestBeep(to: participantID))
                } catch {
                    result = .failure(error)
                }
                // Close the push connections whatever happened (APNs keeps its own client).
                await app.signalling.shutdown()
                let report: TestBeepReport
                do {
                    report = try result.get()
                } catch let error as TestBeepError {
                    throw CommandFailure(error.description)
                }
                guard report.accepted else { throw CommandFailure(report.line) }
                CommandOutput.line(report.line)
            }
        }
    }
}

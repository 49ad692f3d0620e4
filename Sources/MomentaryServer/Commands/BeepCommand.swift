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

        @ArgumentParser.Option(help: "The participant: their label (the 5-character code on the website) or id (a UUID).")
        var participant: String

        @OptionGroup var data: DataOptions

        func validate() throws {
            let text = participant.trimmingCharacters(in: .whitespaces)
            guard UUID(uuidString: text) != nil || text.count == PublicCodes.length else {
                throw ValidationError("--participant must be a participant's label (5 characters, such as BCD23) or id (a UUID), not “\(participant)”.")
            }
        }

        func run() async throws {
            let configuration = try data.loadConfiguration()
            try await AppFactory.withApp(configuration) { app in
                try await ServeCommand.prepareDatabase(app, configuration)
                let participantID = try await Self.participantID(participant, on: app.db)
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

        /// The id itself, or the id of the participant with this label (labels are unique server-wide).
        static func participantID(_ text: String, on db: any Database) async throws -> UUID {
            let text = text.trimmingCharacters(in: .whitespaces)
            if let id = UUID(uuidString: text) { return id }
            guard let participant = try await Participant.query(on: db).filter(\.$label == text.uppercased()).first() else {
                throw CommandFailure("No participant has the label \(text.uppercased()).")
            }
            return try participant.requireID()
        }
    }
}

import ArgumentParser
import Foundation
import MomentaryServer

/// The command line: parses arguments, runs the command and turns every failure into one line on
/// standard error and an exit code (2 for bad arguments, 1 for other failures), never a stack trace.
public enum MomentaryMain {
    public static func run(_ arguments: [String]) async -> Int32 {
        let command: any ParsableCommand
        do {
            command = try MomentaryCommand.parseAsRoot(arguments)
        } catch {
            let code = MomentaryCommand.exitCode(for: error)
            if code == .success {
                CommandOutput.line(MomentaryCommand.fullMessage(for: error))
                return 0
            }
            CommandOutput.error("momentary: \(MomentaryCommand.message(for: error))")
            return 2
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
            return 0
        } catch where MomentaryCommand.exitCode(for: error) == .success {
            // Help and version requests surface as errors: print them and succeed.
            CommandOutput.line(MomentaryCommand.fullMessage(for: error))
            return 0
        } catch {
            let (message, code) = CommandErrorReport.describe(error)
            if !message.isEmpty { CommandOutput.error("momentary: \(message)") }
            return code
        }
    }
}

/// The `momentary` command: the server's commands and the command-line participant.
struct MomentaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "momentary",
        abstract: "Momentary: an experience-sampling research server.",
        subcommands: ServerCommands.all + [ParticipantCommand.self]
    )
}

import ArgumentParser
import Foundation

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
            let (message, code) = describe(error)
            if !message.isEmpty { CommandOutput.error("momentary: \(message)") }
            return code
        }
    }

    /// One sentence for any error a command can end with.
    static func describe(_ error: any Error) -> (String, Int32) {
        switch error {
        case let failure as CommandFailure:
            return (failure.description, failure.exitCode)
        case let configuration as ConfigurationError:
            return (configuration.description, 1)
        case let validation as ValidationError:
            return (validation.message, 2)
        case let exit as ExitCode:
            return ("", exit.rawValue)
        default:
            let code = MomentaryCommand.exitCode(for: error)
            if code == .validationFailure {
                return (MomentaryCommand.message(for: error), 2)
            }
            return (StartupErrorDescription.sentence(for: error), 1)
        }
    }
}

/// The `momentary` command and its subcommands.
struct MomentaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "momentary",
        abstract: "Momentary: an experience-sampling research server.",
        subcommands: [
            ServeCommand.self, MigrateCommand.self, ScheduleCommand.self, StudiesCommand.self, InviteesCommand.self,
            ParticipantCommand.self, ResearchersCommand.self, ExportCommand.self, SignalCommand.self, BeepCommand.self,
            StatisticsCommand.self, BackupCommand.self, RestoreCommand.self, EnvironmentCommand.self,
        ]
    )
}

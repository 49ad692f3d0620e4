import ArgumentParser
import Foundation

/// The server's commands, for the `momentary` command line (target MomentaryCLI), which adds the
/// command-line participant built on the client library.
public enum ServerCommands {
    public static let all: [any ParsableCommand.Type] = [
        ServeCommand.self, MigrateCommand.self, ScheduleCommand.self, StudiesCommand.self, InviteesCommand.self, TokensCommand.self, MailCommand.self,
        ResearchersCommand.self, ExportCommand.self, SignalCommand.self, BeepCommand.self,
        StatisticsCommand.self, BackupCommand.self, RestoreCommand.self, ImportCommand.self, EnvironmentCommand.self,
        PhotosCommand.self,
    ]
}

/// One sentence and an exit code (2 for bad arguments, 1 for other failures) for any error a
/// command can end with, never a stack trace.
public enum CommandErrorReport {
    public static func describe(_ error: any Error) -> (message: String, exitCode: Int32) {
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
            if AnyCommand.exitCode(for: error) == .validationFailure {
                return (AnyCommand.message(for: error), 2)
            }
            return (StartupErrorDescription.sentence(for: error), 1)
        }
    }

    /// Argument parser errors read the same whichever command raised them.
    private struct AnyCommand: ParsableCommand {}
}

import Foundation

/// Where commands write what they print. Standard output and error by default; tests run commands
/// in-process with a capturing sink bound for the duration of the call.
public struct CommandOutput: Sendable {
    public let write: @Sendable (String) -> Void
    public let writeError: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void) {
        self.write = write
        self.writeError = writeError
    }

    public static let standard = CommandOutput(
        write: { text in FileHandle.standardOutput.write(Data((text + "\n").utf8)) },
        writeError: { text in FileHandle.standardError.write(Data((text + "\n").utf8)) })

    @TaskLocal public static var current: CommandOutput = .standard

    /// Prints one line to the current output.
    public static func line(_ text: String) { current.write(text) }
    /// Prints one line to the current error output.
    public static func error(_ text: String) { current.writeError(text) }
}

/// A command failure whose message is already one clear sentence for the person at the terminal.
public struct CommandFailure: Error, CustomStringConvertible {
    public let description: String
    /// 2 for a bad argument, 1 for anything else.
    public let exitCode: Int32

    public init(_ description: String, exitCode: Int32 = 1) {
        self.description = description
        self.exitCode = exitCode
    }

    public static func usage(_ description: String) -> CommandFailure { CommandFailure(description, exitCode: 2) }
}

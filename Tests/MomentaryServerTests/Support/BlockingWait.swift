import Foundation

/// Runs `body`, which blocks (waiting for a child process), on a thread of its own. The threads
/// that every test's tasks share are few (two on a two-core machine): a child migrating or a
/// Python check running for seconds on one of them held it, and unrelated tests' local servers
/// went unanswered until their deadlines passed.
func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Runs a program to its end on a thread of its own; its status and its output and errors together.
func runToEnd(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
    try await onThreadOfItsOwn {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

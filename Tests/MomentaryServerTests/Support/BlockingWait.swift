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

/// `runToEnd` (a `ChildProcess`, not Foundation's `Process`, whose `run` can crash a process
/// holding many descriptors, as this test process does) on a thread of its own.
func runToEndOffThread(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
    try await onThreadOfItsOwn { try runToEnd(executable, arguments) }
}

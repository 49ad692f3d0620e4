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

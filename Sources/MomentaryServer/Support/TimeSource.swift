import Foundation

/// Where the server reads the time and how it waits. Injected so tests can run days of signalling
/// in milliseconds with a manual time source, while production uses the system clock.
public protocol TimeSource: Sendable {
    func now() -> Date
    /// Returns at `deadline` or later (or throws `CancellationError` when the task is cancelled).
    func sleep(until deadline: Date) async throws
}

/// The real clock.
public struct SystemTimeSource: TimeSource {
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let interval = deadline.timeIntervalSinceNow
        if interval > 0 {
            try await Task.sleep(for: .milliseconds(Int64((interval * 1000).rounded(.up))))
        }
    }
}

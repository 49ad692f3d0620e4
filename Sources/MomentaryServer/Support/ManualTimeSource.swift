import Foundation
import Synchronization

/// A clock that only moves when told to, for tests and benchmarks: days of signalling run in
/// milliseconds, and every run sees exactly the same instants.
///
/// Sleepers wait until `set(_:)` or `advance(by:)` moves the time to or past their deadline;
/// a cancelled sleeper wakes at once with `CancellationError`, as `Task.sleep` does.
public final class ManualTimeSource: TimeSource {
    private struct Sleeper {
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        /// Sleepers cancelled before they had registered their continuation.
        var cancelledEarly: Set<UInt64> = []
    }

    private let state: Mutex<State>

    public init(now: Date) {
        state = Mutex(State(now: now))
    }

    public func now() -> Date {
        state.withLock { $0.now }
    }

    /// Moves the clock to `date` (also backwards) and wakes every sleeper whose deadline has come.
    public func set(_ date: Date) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now = date
            let due = state.sleepers.filter { $0.value.deadline <= date }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        set(now().addingTimeInterval(seconds))
    }

    /// How many tasks are asleep on this clock: lets a test wait until a service has gone idle.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// The earliest deadline any sleeper waits for.
    public var earliestDeadline: Date? {
        state.withLock { $0.sleepers.values.map(\.deadline).min() }
    }

    public func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        let id: UInt64? = state.withLock { state in
            guard deadline > state.now else { return nil }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: (any Error)?? = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return .some(CancellationError()) }
                    if deadline <= state.now { return .some(nil) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .none
                }
                switch resumeNow {
                case .some(.some(let error)): continuation.resume(throwing: error)
                case .some(.none): continuation.resume()
                case .none: break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                if let sleeper = state.sleepers.removeValue(forKey: id) { return sleeper }
                state.cancelledEarly.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}

import NIOConcurrencyHelpers
import NIOCore

/// Admits at most `limit` notifications onto an APNs host at once: the server's
/// SETTINGS_MAX_CONCURRENT_STREAMS. Further senders wait in arrival order until a stream ends,
/// their deadline passes, or the channel shuts down; the limit is never exceeded, even when the
/// server lowers it while streams are open.
final class APNsStreamSlots: Sendable {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var limit: Int
        var inUse = 0
        var waiters: [Waiter] = []
        var lastWaiterID = 0
        /// Set by `close`: every later `acquire` fails with it.
        var closedBy: (any Error)?
    }

    private let state: NIOLockedValueBox<State>

    init(limit: Int) {
        state = NIOLockedValueBox(State(limit: max(limit, 0)))
    }

    /// Streams in use now (for tests and the benchmark's report).
    var inUse: Int { state.withLockedValue { $0.inUse } }

    var limit: Int { state.withLockedValue { $0.limit } }

    /// Senders queued for a slot.
    var waiting: Int { state.withLockedValue { $0.waiters.count } }

    /// Takes a slot, waiting for one until `deadline`. Every successful call must be matched by
    /// one `release()`.
    func acquire(until deadline: NIODeadline, timingOutOn eventLoop: any EventLoop) async throws {
        let waiterID: Int? = try state.withLockedValue { state in
            if let error = state.closedBy { throw error }
            if state.inUse < state.limit && state.waiters.isEmpty {
                state.inUse += 1
                return nil
            }
            state.lastWaiterID += 1
            return state.lastWaiterID
        }
        guard let waiterID else { return }

        var timeout: Scheduled<Void>?
        defer { timeout?.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let immediate: Result<Void, any Error>? = state.withLockedValue { state in
                    if let error = state.closedBy { return .failure(error) }
                    state.waiters.append(Waiter(id: waiterID, continuation: continuation))
                    return nil
                }
                if let immediate {
                    continuation.resume(with: immediate)
                    return
                }
                // A waiter freed before this line runs is simply not found by `abandon`.
                timeout = eventLoop.scheduleTask(deadline: deadline) {
                    self.abandon(waiterID, with: APNsConnectionError.timedOut)
                }
                self.handOutFreeSlots()
            }
        } onCancel: {
            self.abandon(waiterID, with: CancellationError())
        }
    }

    /// Gives a slot back; the longest waiter gets it unless the limit has dropped below use.
    func release() {
        let next: Waiter? = state.withLockedValue { state in
            if state.inUse <= state.limit, !state.waiters.isEmpty {
                return state.waiters.removeFirst()
            }
            state.inUse -= 1
            return nil
        }
        next?.continuation.resume()
    }

    /// Applies the server's new SETTINGS_MAX_CONCURRENT_STREAMS, waking waiters a raise admits.
    func setLimit(_ limit: Int) {
        state.withLockedValue { $0.limit = max(limit, 0) }
        handOutFreeSlots()
    }

    /// Fails every waiter and every later `acquire` with `error`; slots in use stay counted
    /// until released.
    func close(with error: any Error) {
        let waiters: [Waiter] = state.withLockedValue { state in
            state.closedBy = error
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(throwing: error) }
    }

    private func handOutFreeSlots() {
        let admitted: [Waiter] = state.withLockedValue { state in
            var admitted: [Waiter] = []
            while state.inUse < state.limit, !state.waiters.isEmpty {
                state.inUse += 1
                admitted.append(state.waiters.removeFirst())
            }
            return admitted
        }
        for waiter in admitted { waiter.continuation.resume() }
    }

    private func abandon(_ waiterID: Int, with error: any Error) {
        let waiter: Waiter? = state.withLockedValue { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == waiterID }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }
}

import Foundation
import Synchronization

/// Lets a long command say how far it has got without flooding the terminal: at most one report
/// every two seconds.
final class ThrottledReport: Sendable {
    private let started = Date()
    private let lastReport = Mutex(Date())

    /// Calls `say` with the whole seconds since the start, if two have passed since the last report.
    func ifDue(_ say: (Int) -> Void) {
        let now = Date()
        let due = lastReport.withLock { last in
            guard now.timeIntervalSince(last) >= 2 else { return false }
            last = now
            return true
        }
        if due { say(Int(now.timeIntervalSince(started))) }
    }
}

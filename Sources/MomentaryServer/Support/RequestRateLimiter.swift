import Foundation

/// Allows each key (a client address) at most `limit` events within a sliding `window`. Kept in
/// memory, so a restart forgives; keys idle for a whole window are forgotten as others arrive.
actor RequestRateLimiter {
    let limit: Int
    let window: TimeInterval
    private var events: [String: [Date]] = [:]
    private var lastSweep = Date.distantPast

    init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// Records an event for `key` and says whether it is within the limit. Refused events are not
    /// recorded, so a client that waits is let in again once its oldest events age out.
    func allow(_ key: String, now: Date) -> Bool {
        sweep(now: now)
        let recent = (events[key] ?? []).filter { now.timeIntervalSince($0) < window }
        guard recent.count < limit else {
            events[key] = recent
            return false
        }
        events[key] = recent + [now]
        return true
    }

    /// Whether `key` is at its limit, without recording anything.
    func isLimited(_ key: String, now: Date) -> Bool {
        (events[key] ?? []).filter { now.timeIntervalSince($0) < window }.count >= limit
    }

    private func sweep(now: Date) {
        guard now.timeIntervalSince(lastSweep) >= window else { return }
        lastSweep = now
        events = events.filter { _, dates in dates.contains { now.timeIntervalSince($0) < window } }
    }
}

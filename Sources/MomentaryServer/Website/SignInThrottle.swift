import Foundation
import Vapor

/// Counts failed sign-ins per email and address: after `limit` failures within `window`, further
/// attempts are refused until the oldest failure ages out. Kept in memory: a restart forgives.
actor SignInThrottle {
    static let limit = 5
    static let window: TimeInterval = 15 * 60

    private var failures: [String: [Date]] = [:]

    static func key(email: String, address: String) -> String { email.lowercased() + "|" + address }

    func isBlocked(_ key: String, now: Date) -> Bool {
        recent(key, now: now).count >= Self.limit
    }

    func recordFailure(_ key: String, now: Date) {
        failures[key] = recent(key, now: now) + [now]
    }

    func reset(_ key: String) {
        failures[key] = nil
    }

    private func recent(_ key: String, now: Date) -> [Date] {
        (failures[key] ?? []).filter { now.timeIntervalSince($0) < Self.window }
    }
}

struct SignInThrottleKey: StorageKey {
    typealias Value = SignInThrottle
}

import Foundation

/// Exponential backoff with jitter and a cap, for retrying uploads.
public struct BackoffPolicy: Sendable, Hashable {
    /// Delay after the first failure.
    public var initialDelay: TimeInterval
    public var multiplier: Double
    /// No delay exceeds this (unless the server's Retry-After asks for longer).
    public var maximumDelay: TimeInterval
    /// Fraction of the delay taken off at random, 0…1, so that many phones coming back online at
    /// once do not retry in lockstep.
    public var jitter: Double

    public init(initialDelay: TimeInterval = 5, multiplier: Double = 2,
                maximumDelay: TimeInterval = 30 * 60, jitter: Double = 0.25) {
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = min(max(jitter, 0), 1)
    }

    public static let standard = BackoffPolicy()

    /// The wait after `attempts` failures (1 = the first), given a uniform random number in 0..<1.
    public func delay(afterAttempts attempts: Int, unitRandom: Double) -> TimeInterval {
        let exponent = Double(max(attempts, 1) - 1)
        let uncapped = initialDelay * pow(multiplier, exponent)
        let capped = uncapped.isFinite ? min(uncapped, maximumDelay) : maximumDelay
        return capped * (1 - jitter * min(max(unitRandom, 0), 1))
    }

    /// The longest Retry-After honoured; anything longer is a server mistake, not a plan.
    public static let maximumRetryAfter: TimeInterval = 24 * 60 * 60
}

/// The queue's view of time, injected so tests run hours of backoff instantly.
public struct UploadClock: Sendable {
    public var now: @Sendable () -> Date
    public var sleep: @Sendable (TimeInterval) async throws -> Void

    public init(now: @escaping @Sendable () -> Date,
                sleep: @escaping @Sendable (TimeInterval) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    public static let system = UploadClock(
        now: { Date() },
        sleep: { seconds in try await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1_000_000_000)) })
}

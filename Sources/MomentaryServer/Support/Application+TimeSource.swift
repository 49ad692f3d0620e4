import Vapor

struct TimeSourceKey: StorageKey {
    typealias Value = any TimeSource
}

extension Application {
    /// The clock `configure(_:_:timeSource:)` was given, for routes that read the time at request
    /// time (sign-in throttling); the system clock if `configure` has not run.
    var timeSource: any TimeSource {
        storage[TimeSourceKey.self] ?? SystemTimeSource()
    }
}

extension Request {
    /// The time by the application's clock, so tests that set the clock also set what routes see.
    var now: Date { application.timeSource.now() }
}

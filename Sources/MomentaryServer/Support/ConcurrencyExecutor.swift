import NIOCore
import NIOPosix

/// Where the process's Swift concurrency tasks run. By default Swift has a thread pool of its own
/// beside SwiftNIO's event loops, so every request hops between them several times (the handler is
/// async, each database answer comes back on an event loop): on two cores those hand-offs (futex
/// waits, wake-ups, context switches) cost about as much CPU as SQLite's own work in the ingest
/// profile (figures: BENCHMARKS.md, `momentary-bench ingest`). Running tasks on the event loops
/// instead lets a continuation resume on the loop that delivered its result, without a thread
/// switch.
///
/// The price: code that blocks an async task now blocks an event loop, and `EventLoopFuture.wait()`
/// from a task traps. The project never waits on futures, and long work (compression, encryption,
/// hashing) runs on `NIOThreadPool`. `MOMENTARY_SWIFT_EXECUTOR=default` keeps Swift's own pool,
/// should a library ever misbehave on the event loops.
public enum ConcurrencyExecutor {
    public static let variable = "MOMENTARY_SWIFT_EXECUTOR"

    /// A value of `MOMENTARY_SWIFT_EXECUTOR` other than `event-loops` or `default`.
    public struct UnknownSetting: Error, CustomStringConvertible {
        public let value: String
        public var description: String {
            "\(ConcurrencyExecutor.variable) must be event-loops or default, not “\(value)”."
        }
    }

    /// Call first thing in `main`, before any task starts. True if the event loops now run tasks.
    @discardableResult
    public static func install(environment: [String: String]) throws(UnknownSetting) -> Bool {
        switch environment[variable] {
        case nil, "event-loops": NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        case "default": false
        case let other?: throw UnknownSetting(value: other)
        }
    }
}

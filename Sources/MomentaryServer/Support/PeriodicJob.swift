import Fluent
import Foundation
import Logging
import Synchronization
import Vapor

/// Background work of `serve` that repeats: once when the server has booted, then every `interval`
/// after the previous run ended, until shutdown, on connections of its own (`backgroundDB`). The
/// work itself is a plain function the tests call directly.
final class PeriodicJob: LifecycleHandler, Sendable {
    typealias Work = @Sendable (_ db: any Database, _ now: Date, _ logger: Logger) async -> Void

    private let component: String
    private let interval: Duration
    private let work: Work
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(component: String, every interval: Duration, work: @escaping Work) {
        self.component = component
        self.interval = interval
        self.work = work
    }

    func didBootAsync(_ application: Application) async throws {
        var logger = application.logger
        logger[metadataKey: "component"] = .string(component)
        let db = application.backgroundDB
        let (interval, work) = (interval, work)
        let started = Task {
            while !Task.isCancelled {
                await work(db, Date(), logger)
                try? await Task.sleep(for: interval)
            }
        }
        task.withLock { $0 = started }
    }

    func shutdownAsync(_ application: Application) async {
        let running = task.withLock { $0 }
        running?.cancel()
        await running?.value
    }
}

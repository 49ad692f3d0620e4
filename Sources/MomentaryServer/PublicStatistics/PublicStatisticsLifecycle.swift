import Foundation
import Vapor

/// `serve`'s background refresh of public statistics: once when the server has booted, then every
/// `interval`, until shutdown. The work itself is `PublicStatisticsService.refreshAll`, which the
/// tests call directly.
final class PublicStatisticsLifecycle: LifecycleHandler, @unchecked Sendable {
    private let interval: Duration
    private let lock = NSLock()
    private var task: Task<Void, Never>?

    init(seconds: Int) {
        interval = .seconds(seconds)
    }

    func didBootAsync(_ application: Application) async throws {
        var logger = application.logger
        logger[metadataKey: "component"] = "public-statistics"
        let db = application.db
        let interval = interval
        let started = Task {
            while !Task.isCancelled {
                await PublicStatisticsService.refreshAll(on: db, now: Date(), logger: logger)
                try? await Task.sleep(for: interval)
            }
        }
        lock.withLock { task = started }
    }

    func shutdownAsync(_ application: Application) async {
        let running = lock.withLock { task }
        running?.cancel()
        await running?.value
    }
}

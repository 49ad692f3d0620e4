import Fluent
import Foundation
import Vapor

extension Application {
    /// The application's signalling service: install it once in `configure`, start it in `serve`
    /// (or `momentary signal`), and let the API wake it after planning.
    public var signalling: Signalling { Signalling(application: self) }

    public struct Signalling: Sendable {
        let application: Application

        private struct DispatcherKey: StorageKey {
            typealias Value = SignalDispatcher
        }

        /// Creates the dispatcher on the application's database, metrics and logger. Does not start it.
        public func install(
            channels: PushChannelRegistry, timeSource: any TimeSource = SystemTimeSource(),
            options: SignalDispatcherOptions = SignalDispatcherOptions()
        ) {
            var logger = application.logger
            logger[metadataKey: "component"] = "signalling"
            application.storage[DispatcherKey.self] = SignalDispatcher(
                database: application.db, channels: channels, timeSource: timeSource, options: options,
                logger: logger, metrics: application.metrics)
        }

        /// Installs a dispatcher with the channels the configuration and environment provide
        /// (see `PushChannelRegistry.configured`); throws when a channel is half-configured.
        public func install(configuration: Configuration, options: SignalDispatcherOptions = SignalDispatcherOptions()) throws {
            let channels = try PushChannelRegistry.configured(for: configuration, httpClient: application.http.client.shared)
            install(channels: channels, options: options)
        }

        /// The installed dispatcher, if any.
        public var dispatcher: SignalDispatcher? {
            application.storage[DispatcherKey.self]
        }

        /// Starts the dispatcher's loop (nothing happens if none is installed).
        public func start() async {
            await dispatcher?.start()
        }

        /// Stops the loop after the current wake has been recorded, then closes the push connections.
        public func shutdown() async {
            guard let dispatcher else { return }
            await dispatcher.shutdown()
            await dispatcher.channels.shutdown()
        }

        /// Wakes the dispatcher after beeps were planned or cancelled; harmless without one.
        public func notifyScheduleChanged() {
            dispatcher?.notifyScheduleChanged()
        }

        /// The dispatcher's state for `/healthz` and `/metrics`; `nil` when none is installed.
        public func health() async -> SignallingHealth? {
            await dispatcher?.currentHealth
        }
    }
}

/// Starts signalling when the server has booted and stops it before the database closes.
/// `serve` registers it: `app.lifecycle.use(SignallingLifecycle())`.
/// (`momentary signal` starts and stops the dispatcher itself.)
public struct SignallingLifecycle: LifecycleHandler {
    public init() {}

    public func didBootAsync(_ application: Application) async throws {
        await application.signalling.start()
    }

    public func shutdownAsync(_ application: Application) async {
        await application.signalling.shutdown()
    }
}

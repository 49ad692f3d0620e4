import AsyncHTTPClient
import Foundation

extension PushChannelRegistry {
    /// The channels a server with this configuration offers: the outbox always (the development
    /// default, at `MOMENTARY_PUSH_OUTBOX` or `<data dir>/push-outbox.jsonl`; outside production
    /// it also serves participants without a push channel), APNs when
    /// `APNS_KEY_FILE` is set, Web Push when the VAPID key and subject are set (outside
    /// production always, with a key kept in the data directory when none is configured). A half-configured
    /// channel is an error naming the variable, so a server never starts unable to beep.
    ///
    /// Web Push uses `httpClient` (the application's shared client); APNs makes its own, so all of
    /// its notifications share one HTTP/2 connection. Call `shutdown()` when done.
    public static func configured(
        for configuration: Configuration, httpClient: HTTPClient, timeSource: any TimeSource = SystemTimeSource(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> PushChannelRegistry {
        let now: @Sendable () -> Date = { timeSource.now() }
        let outbox = OutboxChannel(
            path: OutboxChannel.defaultPath(dataDirectory: configuration.dataDirectory, environment: environment),
            timeSource: timeSource)
        var registry = PushChannelRegistry([outbox])
        // Outside production, participants registered without push (the command-line
        // participant, a phone in a simulator) are beeped through the outbox, so a study can be
        // piloted end to end; in production their beeps fail as "no channel", which is the truth.
        if configuration.environmentName != "production" {
            registry.register(outbox, as: "none")
        }
        do {
            if let apns = try APNsConfiguration.load(environment: environment) {
                registry.register(APNsChannel(configuration: apns, now: now))
            }
        } catch {
            throw CommandFailure("APNs is not configured correctly: \(error)")
        }
        do {
            if let webPush = try WebPushConfiguration.resolve(for: configuration, environment: environment) {
                let trusted = try WebPushConfiguration.extraTrustedCertificates(environment: environment)
                if trusted.isEmpty {
                    registry.register(try WebPushChannel(configuration: webPush, httpClient: httpClient, now: now))
                } else {
                    registry.register(try WebPushChannel(configuration: webPush, trusting: trusted, now: now))
                }
            }
        } catch {
            throw CommandFailure("Web Push is not configured correctly: \(error)")
        }
        return registry
    }
}

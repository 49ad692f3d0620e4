import Foundation

/// The push channels a dispatcher can use, by the name stored in `participants.push_channel`.
/// The outbox is always there in development; APNs and Web Push are added when configured.
public struct PushChannelRegistry: Sendable {
    private var channels: [String: any PushChannel] = [:]

    public init(_ channels: [any PushChannel] = []) {
        for channel in channels { register(channel) }
    }

    /// Adds a channel under its own name (or `name`), replacing any earlier one with that name.
    public mutating func register(_ channel: any PushChannel, as name: String? = nil) {
        channels[name ?? channel.name] = channel
    }

    public func channel(named name: String) -> (any PushChannel)? {
        channels[name]
    }

    /// The names of the registered channels, sorted.
    public var names: [String] { channels.keys.sorted() }

    /// Closes the connections channels opened themselves (APNs keeps its own HTTP/2 client, and
    /// Web Push one when it trusts an extra CA).
    public func shutdown() async {
        for channel in channels.values {
            await channel.shutdown()
        }
    }
}

import Foundation
import MomentaryCore

/// Where weather, air quality and pollen come from. One interface, so a provider can be
/// swapped for another; the server holds any keys, apps never call providers.
protocol EnvironmentProvider: Sendable {
    /// The name stored with each reading (`open-meteo`, `fixture`).
    var name: String { get }

    /// The environment at a place for the UTC hour starting at `hour`.
    func reading(latitude: Double, longitude: Double, hour: Date) async throws(EnvironmentFailure) -> EnvironmentReading
}

/// Why a provider gave no reading, and whether asking again later can help.
struct EnvironmentFailure: Error, Equatable, CustomStringConvertible {
    enum Kind: String, Sendable {
        /// No answer: connection refused, timed out, reset.
        case unreachable
        /// An answer that is an error of the provider's own (5xx, 429) or a refusal of our key (401, 403).
        case providerError
        /// An answer that is not the JSON promised, or lacks the hour asked for.
        case malformed
        /// The provider says the request itself is wrong for this place and hour (an hour outside
        /// its archive, say): asking again will not help.
        case refused
    }

    let kind: Kind
    let message: String

    /// Everything but a refusal is worth another try after a while.
    var isRetryable: Bool { kind != .refused }

    var description: String { "\(kind.rawValue): \(message)" }
}

import Foundation
import MomentaryCore

/// The random source of beep planning: the system generator in production, or a seeded one so
/// that tests and benchmarks plan exactly the same beeps on every run.
public struct BeepRandomness: RandomNumberGenerator, Sendable {
    private enum Source: Sendable {
        case system
        case seeded(Xoshiro256StarStar)
    }

    private var source: Source

    /// Unpredictable times, from `SystemRandomNumberGenerator`.
    public static var system: BeepRandomness { BeepRandomness(source: .system) }

    /// Reproducible times.
    public static func seeded(_ seed: UInt64) -> BeepRandomness {
        BeepRandomness(source: .seeded(Xoshiro256StarStar(seed: seed)))
    }

    public mutating func next() -> UInt64 {
        switch source {
        case .system:
            var system = SystemRandomNumberGenerator()
            return system.next()
        case .seeded(var generator):
            let value = generator.next()
            source = .seeded(generator)
            return value
        }
    }
}

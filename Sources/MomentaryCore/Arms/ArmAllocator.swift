import Foundation

/// The random draws of allocation, pure so that tests can drive them with a seeded generator.
public enum ArmAllocator {
    /// Simple allocation: an arm's index, each with probability weight / total weight.
    public static func simple(weights: [Int], using generator: inout some RandomNumberGenerator) -> Int {
        let total = weights.reduce(0, +)
        precondition(total > 0, "weights are checked before allocation")
        var draw = Int.random(in: 0..<total, using: &generator)
        for (index, weight) in weights.enumerated() {
            if draw < weight { return index }
            draw -= weight
        }
        return weights.count - 1
    }

    /// A permuted block: each arm's name `blockSize × weight / total` times, in random order.
    public static func block(arms: [String], weights: [Int], blockSize: Int, using generator: inout some RandomNumberGenerator) -> [String] {
        var block = balancedContents(arms: arms, weights: weights, blockSize: blockSize)
        block.shuffle(using: &generator)
        return block
    }

    /// What every block of this size holds, in arm order (before it is permuted): the record an
    /// auditor checks each complete block against.
    public static func balancedContents(arms: [String], weights: [Int], blockSize: Int) -> [String] {
        let total = weights.reduce(0, +)
        guard total > 0 else { return [] }
        return zip(arms, weights).flatMap { arm, weight in Array(repeating: arm, count: blockSize * weight / total) }
    }
}

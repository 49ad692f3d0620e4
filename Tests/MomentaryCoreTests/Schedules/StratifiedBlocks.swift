import Foundation
@testable import MomentaryCore

/// The blocks of a stratified day, worked out here from the definition rather than taken from the
/// code under test: in a window of L seconds, block k of n (from 0) starts ⌊k·L/n⌋ seconds after
/// the window opens and is ⌊L/n⌋ seconds long.
struct StratifiedBlocks {
    let windowStart: Int
    let length: Int
    let count: Int

    init(windowStart: Int = 0, length: Int, count: Int) {
        self.windowStart = windowStart
        self.length = length
        self.count = count
    }

    init(window: SignallingWindow, count: Int) {
        self.init(windowStart: Int(window.start.timeIntervalSince1970), length: window.lengthSeconds, count: count)
    }

    var blockLength: Int { length / count }

    func start(_ index: Int) -> Int { windowStart + index * length / count }

    /// Each beep's offset in its block, beep k in block k; nil when the count is not n or a beep
    /// lies outside its own block.
    func offsets(_ seconds: [Int]) -> [Int]? {
        guard seconds.count == count else { return nil }
        let offsets = seconds.enumerated().map { $1 - start($0) }
        return offsets.allSatisfy { (0..<blockLength).contains($0) } ? offsets : nil
    }

    func offsets(_ beeps: [Date]) -> [Int]? {
        offsets(beeps.map { Int($0.timeIntervalSince1970) })
    }

    /// For many days' offsets: each block's KS statistic against uniform and its critical value at
    /// α = 0.001 (the significance of the uniform schedule's tests).
    static func uniformity(_ days: [[Int]], blockLength: Int) -> [(statistic: Double, critical: Double)] {
        guard let count = days.first?.count else { return [] }
        return (0..<count).map { block in
            let positions = days.map { Double($0[block]) / Double(blockLength) }
            return (KolmogorovSmirnov.statisticAgainstUniform(positions),
                    KolmogorovSmirnov.criticalValue(count: positions.count, alpha: 0.001))
        }
    }
}

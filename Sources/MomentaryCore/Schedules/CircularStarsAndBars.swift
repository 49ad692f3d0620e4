/// The Mappiness scheduling algorithm on whole seconds: circular stars and bars with a random
/// rotation, so beeps keep a minimum gap without becoming predictable (fixed blocks are) or
/// crowding away from block edges (re-drawing until the gaps fit does that).
///
/// For a window of `length` seconds, `count` beeps and a minimum gap `gap`: draw v₁…vₙ uniformly
/// from {0, …, length − n·gap} and sort them; yₖ = vₖ + (k−1)·gap; draw a phase φ uniformly from
/// {0, …, length − 1}; the offsets are (yₖ + φ) mod length, sorted.
/// - Each offset is exactly uniform on {0, …, length − 1}: adding an independent uniform phase
///   modulo `length` makes any yₖ uniform.
/// - Consecutive yₖ differ by ≥ gap, and the wrap-around distance y₁ + length − yₙ ≥ gap because
///   vₙ − v₁ ≤ length − n·gap; rotating a circle keeps every distance, so all gaps are ≥ gap.
/// Whole seconds keep both properties exact (no rounding), and instants are whole seconds anyway.
enum CircularStarsAndBars {
    /// Sorted offsets in `0..<length`. Requires `length > 0`, `gap ≥ 0`, `count · gap ≤ length`.
    static func offsets<Generator: RandomNumberGenerator>(
        count: Int, length: Int, gap: Int, using generator: inout Generator
    ) -> [Int] {
        precondition(length > 0 && gap >= 0 && count >= 0 && count * gap <= length)
        guard count > 0 else { return [] }
        let slack = length - count * gap
        var points = [Int]()
        points.reserveCapacity(count)
        for _ in 0..<count {
            points.append(UniformDraw.below(slack + 1, using: &generator))
        }
        points.sort()
        let phase = UniformDraw.below(length, using: &generator)
        // The shifted points rise, so those that pass the end wrap round to the front, in order.
        var firstWrapped = count
        for index in points.indices {
            points[index] += index * gap + phase
            if points[index] >= length {
                points[index] -= length
                firstWrapped = min(firstWrapped, index)
            }
        }
        // Rotate the wrapped ones to the front in place (three reversals): planning a million
        // participant-days a second has no time for a second array.
        reverse(&points, 0, firstWrapped)
        reverse(&points, firstWrapped, count)
        reverse(&points, 0, count)
        return points
    }

    private static func reverse(_ values: inout [Int], _ start: Int, _ end: Int) {
        var (low, high) = (start, end - 1)
        while low < high {
            values.swapAt(low, high)
            low += 1
            high -= 1
        }
    }
}

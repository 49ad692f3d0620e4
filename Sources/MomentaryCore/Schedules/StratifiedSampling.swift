/// Stratified sampling on whole seconds: one beep in each of `count` equal blocks of the window,
/// each exactly uniform within its block, consecutive beeps at least `gap` apart.
///
/// Blocks are B = ⌊length / count⌋ seconds long; block k (from 0) starts at ⌊k · length / count⌋.
/// The offsets within blocks form a chain: u₀ is uniform on {0, …, B − 1}, and
/// u_{k+1} = (u_k + s_k) mod B with s_k uniform on {max(g, 1), …, B}, drawn afresh each time.
/// - Each u_k is exactly uniform on {0, …, B − 1}: rotating a uniform offset by an independent
///   shift modulo B leaves it uniform, whatever the shift's distribution.
/// - Blocks start at least B apart, so beep k + 1 follows beep k by at least B + u_{k+1} − u_k.
///   Without a wrap u_{k+1} = u_k + s_k and that is ≥ B + g; with one u_{k+1} = u_k + s_k − B and
///   it is ≥ s_k ≥ g.
/// - The shift s_k mod B is uniform on {0} ∪ {g, …, B − 1}: g = 0 makes the offsets independent
///   (starting s at 1 rather than 0 keeps the zero shift from being counted twice, as 0 and B),
///   g = B puts every beep at the same offset.
/// - When `length` is not a multiple of `count`, the fewer than `count` seconds left over (the
///   last second after some blocks) never hold a beep. Windows of whole minutes with 1 to 5
///   beeps always divide evenly, 60 being a multiple of 1 to 5.
/// The gap across the end of the window is not kept (unlike circular stars and bars): the next
/// beep after the window is the next day's, which this does not see.
enum StratifiedSampling {
    /// Block length in seconds for `count` blocks in `length` seconds.
    static func blockLength(count: Int, length: Int) -> Int {
        length / count
    }

    /// Start of block `index` (from 0), in seconds from the start of the window.
    static func blockStart(_ index: Int, count: Int, length: Int) -> Int {
        index * length / count
    }

    /// Offsets in `0..<length`, rising, one per block. Requires `count ≥ 0`, `gap ≥ 0` and,
    /// when `count > 0`, blocks of at least `max(gap, 1)` seconds (`count · max(gap, 1) ≤ length`).
    static func offsets<Generator: RandomNumberGenerator>(
        count: Int, length: Int, gap: Int, using generator: inout Generator
    ) -> [Int] {
        precondition(count >= 0 && gap >= 0)
        guard count > 0 else { return [] }
        let block = blockLength(count: count, length: length)
        let smallestShift = max(gap, 1)
        precondition(block >= smallestShift)
        var offset = UniformDraw.below(block, using: &generator)
        var beeps = [blockStart(0, count: count, length: length) + offset]
        beeps.reserveCapacity(count)
        for index in 1..<count {
            let shift = smallestShift + UniformDraw.below(block - smallestShift + 1, using: &generator)
            offset = (offset + shift) % block
            beeps.append(blockStart(index, count: count, length: length) + offset)
        }
        return beeps
    }
}

/// Unbiased uniform draws built on `RandomNumberGenerator.next()` alone.
///
/// The standard library's `Int.random(in:using:)` is just as exact, but is generic over the
/// integer type too; called through our generic entry points from another module it runs
/// unspecialised and dominates the cost of a schedule. Here only `next()` is dynamic.
enum UniformDraw {
    /// A uniform integer in `0..<bound` (Lemire's multiply-and-reject method: the high word of
    /// a 64×64-bit product, rejecting the few low words that would favour some results).
    static func below<Generator: RandomNumberGenerator>(_ bound: Int, using generator: inout Generator) -> Int {
        precondition(bound > 0)
        let range = UInt64(bound)
        var product = generator.next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = generator.next().multipliedFullWidth(by: range)
            }
        }
        return Int(product.high)
    }

    /// A uniform fraction in [0, 1) with 53 random bits.
    static func fraction<Generator: RandomNumberGenerator>(using generator: inout Generator) -> Double {
        Double(generator.next() >> 11) * 0x1p-53
    }
}

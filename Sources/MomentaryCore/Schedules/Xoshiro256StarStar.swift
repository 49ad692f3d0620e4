/// A small, fast, seedable random number generator (xoshiro256**), so that a seed reproduces a
/// schedule exactly. Not for secrets: use `SystemRandomNumberGenerator` for those.
public struct Xoshiro256StarStar: RandomNumberGenerator, Sendable, Hashable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// Expands the 64-bit seed into the 256-bit state with SplitMix64, which never yields the
    /// all-zero state that xoshiro cannot leave.
    public init(seed: UInt64) {
        var splitMix = seed
        func nextSplitMix() -> UInt64 {
            splitMix &+= 0x9E37_79B9_7F4A_7C15
            var z = splitMix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = nextSplitMix()
        s1 = nextSplitMix()
        s2 = nextSplitMix()
        s3 = nextSplitMix()
    }

    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, by: 7) &* 9
        let shifted = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= shifted
        s3 = rotateLeft(s3, by: 45)
        return result
    }

    private func rotateLeft(_ value: UInt64, by count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}

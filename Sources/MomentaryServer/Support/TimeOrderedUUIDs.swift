import Foundation

/// Version 7 UUIDs (RFC 9562): the Unix time in milliseconds in the first 48 bits, then 74 random
/// bits. Rows made one after another get ids that sort after one another, so a batch's inserts
/// land on the last pages of each id index instead of a random page per row: with random
/// (version 4) ids every answer rewrote a page of its own into SQLite's write-ahead log (and
/// PostgreSQL's), which was most of what storing a batch of answers cost (figures: BENCHMARKS.md,
/// `momentary-bench ingest`).
///
/// One generator makes a batch's ids: seeded once from the system's random source, then
/// SplitMix64, as a system call for every id (hundreds a batch) showed in the profile.
public struct TimeOrderedUUIDs {
    private let timeBytes: [UInt8]
    private var state: UInt64

    public init(at time: Date = Date()) {
        let milliseconds = UInt64(max(0, time.timeIntervalSince1970 * 1000))
        timeBytes = (0..<6).map { UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * $0)) }
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    public mutating func next() -> UUID {
        let middle = nextRandom()
        let tail = nextRandom()
        func byte(_ value: UInt64, _ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
        return UUID(uuid: (
            timeBytes[0], timeBytes[1], timeBytes[2], timeBytes[3], timeBytes[4], timeBytes[5],
            0x70 | byte(middle, 8) & 0x0F, byte(middle, 0),
            0x80 | byte(tail, 56) & 0x3F, byte(tail, 48), byte(tail, 40), byte(tail, 32),
            byte(tail, 24), byte(tail, 16), byte(tail, 8), byte(tail, 0)))
    }

    /// SplitMix64 (Steele, Lea and Flood, 2014).
    private mutating func nextRandom() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import Foundation
@testable import MomentaryServer
import Testing

@Suite("Time-ordered ids")
struct TimeOrderedUUIDsTests {
    /// The 16 bytes of an id, in the order databases compare them.
    private func bytes(_ id: UUID) -> [UInt8] {
        withUnsafeBytes(of: id.uuid) { Array($0) }
    }

    @Test("are version 7 UUIDs carrying the time in milliseconds")
    func versionAndTime() {
        let time = Date(timeIntervalSince1970: 1_795_000_000.123)
        var ids = TimeOrderedUUIDs(at: time)
        for _ in 0..<100 {
            let id = bytes(ids.next())
            #expect(id[6] >> 4 == 7, "version 7")
            #expect(id[8] >> 6 == 0b10, "RFC 9562 variant")
            let milliseconds = id[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            #expect(milliseconds == 1_795_000_000_123)
        }
    }

    @Test("differ within a batch and across batches made in the same millisecond")
    func distinct() {
        let time = Date()
        var first = TimeOrderedUUIDs(at: time), second = TimeOrderedUUIDs(at: time)
        let ids = (0..<5_000).map { _ in first.next() } + (0..<5_000).map { _ in second.next() }
        #expect(Set(ids).count == ids.count)
    }

    @Test("sort by the time they were made, as bytes and as text")
    func ordered() {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let ids = (0..<200).map { step -> UUID in
            var batch = TimeOrderedUUIDs(at: start.addingTimeInterval(Double(step) * 0.01))
            return batch.next()
        }
        #expect(ids.map(bytes).sorted { $0.lexicographicallyPrecedes($1) } == ids.map(bytes))
        #expect(ids.map(\.uuidString).sorted() == ids.map(\.uuidString))
    }
}

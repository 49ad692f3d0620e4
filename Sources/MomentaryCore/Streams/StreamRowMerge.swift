import Foundation

/// Joins accepted batches of one stream into the single CSV a researcher downloads: the stream's
/// header, then every row in time order, a row repeated by overlapping batches only once.
/// `survey_answers` has no times, so its rows keep the order their batches arrived in and are all
/// kept (the same answer given in two surveys is two rows, not a duplicate).
public struct StreamRowMerge: Sendable {
    public let stream: PassiveStream
    private var buffer: [UInt8] = []
    private var rows: [Row] = []

    private struct Row {
        let time: Int64
        let start: Int
        let end: Int
    }

    public init(stream: PassiveStream) {
        self.stream = stream
    }

    /// Rows added so far, repeats included.
    public var addedRowCount: Int { rows.count }

    /// Adds the rows of a batch that passed `StreamBatchValidator`, keeping those with
    /// `range.lowerBound <= time < range.upperBound` (all rows for a stream without times).
    public mutating func add(batch csv: Data, times range: Range<Int64>? = nil) {
        let offset = buffer.count
        buffer.append(contentsOf: csv)
        let timed = stream.hasTimestamps
        var found: [Row] = []
        buffer.withUnsafeBufferPointer { bytes in
            var position = offset
            // Skip the header line.
            while position < bytes.count, bytes[position] != Byte.lineFeed { position += 1 }
            position += 1
            while position < bytes.count {
                let start = position
                var quoted = false
                var time: Int64 = 0
                var inTime = timed
                while position < bytes.count {
                    let byte = bytes[position]
                    if byte == Byte.quote { quoted.toggle() }
                    if byte == Byte.lineFeed, !quoted { break }
                    if inTime {
                        if byte &- Byte.zero < 10 { time = time * 10 + Int64(byte &- Byte.zero) } else { inTime = false }
                    }
                    position += 1
                }
                var end = position
                if end > start, bytes[end - 1] == Byte.carriageReturn { end -= 1 }
                position += 1
                if end > start, range.map({ !timed || $0.contains(time) }) ?? true {
                    found.append(Row(time: time, start: start, end: end))
                }
            }
        }
        rows += found
    }

    /// The merged CSV, with `\n` line endings.
    public mutating func csv() -> Data { merged().csv }

    /// The merged CSV (with the stream's header line unless told otherwise, for a piece of a
    /// longer CSV) and how many rows it has after repeats were dropped. The rows added are used up:
    /// they are sorted where they are and written straight out, so nothing is held twice.
    public mutating func merged(withHeader: Bool = true) -> (csv: Data, rowCount: Int) {
        var order = rows
        rows = []
        var output = Data()
        output.reserveCapacity(buffer.count + stream.headerLine.utf8.count + 1)
        if withHeader {
            output.append(contentsOf: stream.headerLine.utf8)
            output.append(Byte.lineFeed)
        }
        let timed = stream.hasTimestamps
        var written = 0
        buffer.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress!
            func compare(_ left: Row, _ right: Row) -> Int32 {
                let shorter = min(left.end - left.start, right.end - right.start)
                let common = memcmp(base + left.start, base + right.start, shorter)
                if common != 0 { return common }
                return Int32((left.end - left.start) - (right.end - right.start)).signum()
            }
            if timed { order.sort { $0.time != $1.time ? $0.time < $1.time : compare($0, $1) < 0 } }
            var previous: Row?
            for row in order {
                if timed, let previous, previous.time == row.time, compare(previous, row) == 0 { continue }
                output.append(base + row.start, count: row.end - row.start)
                output.append(Byte.lineFeed)
                written += 1
                previous = row
            }
        }
        return (output, written)
    }
}

import Foundation
import MomentaryCore

/// Writes CSV (the rules of `CSVText`) as UTF-8 bytes into one reusable buffer: no `String` is
/// built per row or per field, and instants are written digit by digit, which is most of what a
/// million-row export used to spend its time on (figures: BENCHMARKS.md, `momentary-bench export`).
/// The caller takes the bytes a page at a time (`take`) and hands them to `ExportOutput`.
struct CSVWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the current record has a field yet (the next one needs a comma before it).
    private var recordStarted = false
    /// The last UTC day written, as `YYYY-MM-DD`: consecutive rows mostly fall on the same day.
    private var cachedDay = Int.min
    private var cachedDayText: [UInt8] = []

    init(capacity: Int = 64 * 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// Hands what is written to `output`, keeping the buffer's capacity for the next page.
    mutating func flush(to output: ExportOutput) async throws {
        guard !bytes.isEmpty else { return }
        try await output.write(bytes: bytes)
        clear()
    }

    mutating func record(_ cells: [ExportCell]) {
        fields(cells)
        endRecord()
    }

    mutating func record(_ fields: [String]) {
        for field in fields { text(field) }
        endRecord()
    }

    mutating func endRecord() {
        bytes.append(CSVText.carriageReturn)
        bytes.append(CSVText.lineFeed)
        recordStarted = false
    }

    /// Fields of a record that goes on (`endRecord` is not called).
    mutating func fields(_ cells: [ExportCell]) {
        for cell in cells { field(cell) }
    }

    /// Bytes already written as whole fields (a response's columns shared by its answer rows), with
    /// the comma before them if the record has fields already.
    mutating func fields(_ written: ArraySlice<UInt8>) {
        separate()
        bytes.append(contentsOf: written)
    }

    /// Starts again with nothing written, keeping the buffer's capacity.
    mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
        recordStarted = false
    }

    mutating func field(_ cell: ExportCell) {
        switch cell {
        case .empty: separate()
        case .text(let value): text(value)
        case .number(let value): number(value)
        case .date(let date): timestamp(date, utcMarker: true)
        case .localDate(let wallClock): timestamp(wallClock, utcMarker: false)
        case .bool(let flag): ascii(flag ? "true" : "false")
        }
    }

    /// A text field: a leading `'` when a spreadsheet would run it as a formula, quoted (inner
    /// quotes doubled) when it holds a comma, quote or line break or starts or ends with a space.
    mutating func text(_ value: String) {
        separate()
        let neutralize = CSVText.needsNeutralizing(value)
        var value = value
        value.withUTF8 { utf8 in
            guard let first = utf8.first, let last = utf8.last else { return }
            let quote = CSVText.needsQuotes(first: neutralize ? CSVText.apostrophe : first, last: last, utf8)
            if quote { bytes.append(CSVText.quote) }
            if neutralize { bytes.append(CSVText.apostrophe) }
            if quote {
                for byte in utf8 {
                    if byte == CSVText.quote { bytes.append(CSVText.quote) }
                    bytes.append(byte)
                }
                bytes.append(CSVText.quote)
            } else {
                bytes.append(contentsOf: utf8)
            }
        }
    }

    /// A number as `ExportBytes` writes it (never quoted or neutralised: it cannot hold a comma,
    /// and a leading `-` is a number's).
    mutating func number(_ value: Double) {
        separate()
        ExportBytes.number(value, into: &bytes)
    }

    /// An instant as `ExportTimestamp` writes it, or a wall-clock time without the `Z`.
    mutating func timestamp(_ date: Date, utcMarker: Bool) {
        separate()
        let parts = ExportTimestamp.Parts(date)
        if parts.day != cachedDay {
            cachedDay = parts.day
            let day = LocalDate(daysSinceEpoch: parts.day)
            cachedDayText.removeAll(keepingCapacity: true)
            ExportBytes.digits(day.year, width: 4, into: &cachedDayText)
            cachedDayText.append(UInt8(ascii: "-"))
            ExportBytes.digits(day.month, width: 2, into: &cachedDayText)
            cachedDayText.append(UInt8(ascii: "-"))
            ExportBytes.digits(day.day, width: 2, into: &cachedDayText)
        }
        bytes.append(contentsOf: cachedDayText)
        bytes.append(UInt8(ascii: "T"))
        ExportBytes.digits(parts.second / 3600, width: 2, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ExportBytes.digits(parts.second / 60 % 60, width: 2, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ExportBytes.digits(parts.second % 60, width: 2, into: &bytes)
        // Always the milliseconds: one format in every column, which pandas and R read without a hint.
        bytes.append(UInt8(ascii: "."))
        ExportBytes.digits(parts.millisecond, width: 3, into: &bytes)
        if utcMarker { bytes.append(UInt8(ascii: "Z")) }
    }

    /// Text known to need neither quotes nor neutralising (`true`, `false`).
    private mutating func ascii(_ value: StaticString) {
        separate()
        bytes.append(contentsOf: UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
    }

    private mutating func separate() {
        if recordStarted { bytes.append(CSVText.comma) }
        recordStarted = true
    }
}

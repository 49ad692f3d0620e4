import Foundation

/// Checks a CSV batch of a passive stream against the stream's format in one pass over the bytes:
/// the header exactly, then every row's column count, numbers, millisecond timestamps and
/// enumerated values. Throws the first `StreamBatchProblem`; on success returns the per-hour
/// summary the server indexes. Byte-level on purpose: uploads of sensor data are large.
public enum StreamBatchValidator {
    public static func validate(_ csv: Data, as stream: PassiveStream) throws -> StreamBatchSummary {
        let result = csv.withUnsafeBytes { raw in
            var scan = Scan(bytes: raw.bindMemory(to: UInt8.self), stream: stream)
            return Result { try scan.run() }
        }
        return try result.get()
    }
}

private struct Scan {
    let bytes: UnsafeBufferPointer<UInt8>
    let stream: PassiveStream
    /// The batch's format, known once the header is read (the stream's first until then).
    var format: StreamFormat
    var columns: [StreamColumn]
    /// Each column's check, with enumerated values as bytes so rows are compared without Strings.
    var checks: [Check]
    /// Android's message rows (`ts,User hit submit`), as bytes.
    var messageRows: [[UInt8]]
    var index = 0
    var line = 1
    var hours = HourTally()

    enum Check {
        case timestamp, number, text
        case oneOf([[UInt8]])
    }

    init(bytes: UnsafeBufferPointer<UInt8>, stream: PassiveStream) {
        self.bytes = bytes
        self.stream = stream
        format = stream.formats[0]
        columns = []
        checks = []
        messageRows = []
        use(format)
    }

    private mutating func use(_ format: StreamFormat) {
        self.format = format
        columns = format.columns
        checks = columns.map { column in
            switch column.kind {
            case .timestamp: .timestamp
            case .number: .number
            case .text: .text
            case .oneOf(let values): .oneOf(values.map { Array($0.utf8) })
            }
        }
        messageRows = format.messageRows.map { Array($0.utf8) }
    }

    mutating func run() throws -> StreamBatchSummary {
        try checkHeader()
        var rowCount = 0
        while index < bytes.count {
            try scanRow()
            rowCount += 1
        }
        guard rowCount > 0 else {
            throw StreamBatchProblem(line: line, column: nil, message: "The batch has the \(stream.rawValue) header but no rows.")
        }
        return StreamBatchSummary(rowCount: rowCount, hours: hours.sorted(), format: format.name)
    }

    private mutating func checkHeader() throws {
        var end = 0
        while end < bytes.count, bytes[end] != Byte.lineFeed { end += 1 }
        var lineEnd = end
        if lineEnd > 0, bytes[lineEnd - 1] == Byte.carriageReturn { lineEnd -= 1 }
        let given = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<lineEnd]), as: UTF8.self)
            .split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if let format = stream.format(ofHeader: given) {
            use(format)
            index = min(end + 1, bytes.count)
            line = 2
            return
        }
        // Said against the format the header comes closest to (the first of equals).
        let closest = stream.formats.max { $0.leadingMatches(given) < $1.leadingMatches(given) } ?? format
        let header = closest.header
        let position = closest.leadingMatches(given)
        let column = position < header.count ? header[position] : nil
        let found = position < given.count ? "“\(given[position])”" : "nothing"
        let others = stream.formats.filter { $0 != closest }.map { " (or \($0.name)’s “\($0.headerLine)”)" }.joined()
        throw StreamBatchProblem(
            line: 1, column: column,
            message: "The first line must be exactly the \(stream.rawValue) header “\(closest.headerLine)”\(others); column \(position + 1) should be \(column.map { "“\($0)”" } ?? "the end of the line") but is \(found).")
    }

    private mutating func scanRow() throws {
        let rowLine = line
        let rowStart = index
        if bytes[index] == Byte.lineFeed || bytes[index] == Byte.carriageReturn {
            throw StreamBatchProblem(line: rowLine, column: nil, message: "Line \(rowLine) is empty; every line after the header must be a row.")
        }
        var column = 0
        var timestamp: Int64 = 0
        while true {
            guard column < checks.count else {
                throw StreamBatchProblem(line: rowLine, column: nil, message: "Line \(rowLine) has more than the \(checks.count) columns of the \(stream.rawValue) header.")
            }
            let field = try scanField(rowLine: rowLine, column: column)
            switch checks[column] {
            case .text: break
            case .timestamp: timestamp = try self.timestamp(field, rowLine: rowLine, column: column)
            case .number:
                guard !field.quoted, Self.isNumber(bytes, field.start, field.end) else {
                    throw problem(field, rowLine, column, "is not a number")
                }
            case .oneOf(let values):
                guard !field.quoted, values.contains(where: { Self.equal(bytes, field.start, field.end, $0) }) else {
                    throw problem(field, rowLine, column, "is not one of \(Self.list(columns[column]))")
                }
            }
            column += 1
            if index >= bytes.count { break }
            let separator = bytes[index]
            index += 1
            if separator == Byte.comma { continue }
            if separator == Byte.carriageReturn, index < bytes.count, bytes[index] == Byte.lineFeed { index += 1 }
            line += 1
            break
        }
        guard column == checks.count || column == 2 && isMessageRow(rowStart) else {
            throw StreamBatchProblem(
                line: rowLine, column: columns[column].name,
                message: "Line \(rowLine) has \(column) of the \(checks.count) columns of the \(stream.rawValue) header: “\(columns[column].name)” is missing.")
        }
        if stream.hasTimestamps { hours.add(timestamp) }
    }

    /// Whether the row from `start` is a timestamp and one of the format's message rows.
    private func isMessageRow(_ start: Int) -> Bool {
        guard !messageRows.isEmpty, let comma = bytes[start..<index].firstIndex(of: Byte.comma) else { return false }
        var end = index
        while end > comma + 1, bytes[end - 1] == Byte.lineFeed || bytes[end - 1] == Byte.carriageReturn { end -= 1 }
        return messageRows.contains { Self.equal(bytes, comma + 1, end, $0) }
    }

    private struct Field {
        let start: Int, end: Int, quoted: Bool
    }

    /// A field from `index` to the comma or line ending after it, which stays at `index`. A quoted
    /// field may hold commas, line breaks and doubled quotes.
    private mutating func scanField(rowLine: Int, column: Int) throws -> Field {
        guard index < bytes.count, bytes[index] == Byte.quote else {
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == Byte.comma || byte == Byte.lineFeed || byte == Byte.carriageReturn { break }
                index += 1
            }
            return Field(start: start, end: index, quoted: false)
        }
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Byte.quote {
                if index + 1 < bytes.count, bytes[index + 1] == Byte.quote {
                    index += 2
                    continue
                }
                let end = index
                index += 1
                if index < bytes.count, ![Byte.comma, Byte.lineFeed, Byte.carriageReturn].contains(bytes[index]) {
                    throw StreamBatchProblem(line: line, column: columns[column].name, message: "Line \(line), column “\(columns[column].name)”: text follows the closing quote.")
                }
                return Field(start: start, end: end, quoted: true)
            }
            if byte == Byte.lineFeed { line += 1 }
            index += 1
        }
        throw StreamBatchProblem(line: rowLine, column: columns[column].name, message: "Line \(rowLine), column “\(columns[column].name)”: the quoted value is never closed.")
    }

    private func timestamp(_ field: Field, rowLine: Int, column: Int) throws -> Int64 {
        let length = field.end - field.start
        guard !field.quoted, length > 0, length <= 13 else {
            throw problem(field, rowLine, column, "is not a time in whole milliseconds since 1970")
        }
        var value: Int64 = 0
        for position in field.start..<field.end {
            let digit = bytes[position] &- Byte.zero
            guard digit < 10 else { throw problem(field, rowLine, column, "is not a time in whole milliseconds since 1970") }
            value = value * 10 + Int64(digit)
        }
        guard StreamTimestamp.plausibleRange.contains(value) else {
            throw problem(field, rowLine, column, "is not a time in milliseconds between 2001 and 2100 (seconds instead of milliseconds?)")
        }
        return value
    }

    private func problem(_ field: Field, _ rowLine: Int, _ column: Int, _ what: String) -> StreamBatchProblem {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[field.start..<field.end]).prefix(40), as: UTF8.self)
        let name = columns[column].name
        return StreamBatchProblem(line: rowLine, column: name, message: "Line \(rowLine), column “\(name)”: “\(text)” \(what).")
    }

    private static func list(_ column: StreamColumn) -> String {
        guard case .oneOf(let values) = column.kind else { return "" }
        return values.joined(separator: ", ")
    }

    /// `-12`, `0.5`, `.5`, `3.`, `1e-05`, `-2.5E+3`: what Swift, Java and JavaScript print for a Double.
    static func isNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var position = start
        if position < end, bytes[position] == Byte.minus || bytes[position] == Byte.plus { position += 1 }
        var digits = 0
        while position < end, bytes[position] &- Byte.zero < 10 { position += 1; digits += 1 }
        if position < end, bytes[position] == Byte.dot {
            position += 1
            while position < end, bytes[position] &- Byte.zero < 10 { position += 1; digits += 1 }
        }
        guard digits > 0 else { return false }
        if position < end, bytes[position] | 0x20 == Byte.lowerE {
            position += 1
            if position < end, bytes[position] == Byte.minus || bytes[position] == Byte.plus { position += 1 }
            let exponentStart = position
            while position < end, bytes[position] &- Byte.zero < 10 { position += 1 }
            guard position > exponentStart else { return false }
        }
        return position == end
    }

    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ value: [UInt8]) -> Bool {
        guard end - start == value.count else { return false }
        return value.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress! + start, value.count) == 0 }
    }
}

/// Row counts and time spans per UTC hour; rows mostly arrive in order, so the current hour is cached.
private struct HourTally {
    private var hours: [StreamBatchSummary.Hour] = []
    private var positions: [Int64: Int] = [:]
    private var current: Int64 = -1
    private var currentPosition = 0

    mutating func add(_ time: Int64) {
        let start = StreamTimestamp.hourStart(of: time)
        if start != current {
            if let position = positions[start] {
                currentPosition = position
            } else {
                currentPosition = hours.count
                positions[start] = currentPosition
                hours.append(.init(start: start, rowCount: 0, first: time, last: time))
            }
            current = start
        }
        let hour = hours[currentPosition]
        hours[currentPosition] = .init(start: start, rowCount: hour.rowCount + 1, first: min(hour.first, time), last: max(hour.last, time))
    }

    func sorted() -> [StreamBatchSummary.Hour] { hours.sorted { $0.start < $1.start } }
}

enum Byte {
    static let lineFeed = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r"), comma = UInt8(ascii: ",")
    static let quote = UInt8(ascii: "\""), zero = UInt8(ascii: "0"), minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: "."), lowerE = UInt8(ascii: "e")
}

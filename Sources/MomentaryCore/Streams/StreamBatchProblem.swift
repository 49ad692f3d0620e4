/// Why a stream batch was refused: the first problem found, by line (the header is line 1, as in
/// an editor) and by the name of the column from the stream's header.
public struct StreamBatchProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public let line: Int
    /// The column at fault, by its header name; nil when the whole line is wrong (empty, too many values).
    public let column: String?
    public let message: String

    public init(line: Int, column: String?, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { message }
}

/// What the index needs to know about an accepted batch, gathered in the same pass as validation.
public struct StreamBatchSummary: Sendable, Hashable {
    /// The rows of one UTC hour.
    public struct Hour: Sendable, Hashable {
        /// Milliseconds since 1970 at the start of the hour.
        public let start: Int64
        public let rowCount: Int
        /// The earliest and latest row times in the hour, in milliseconds.
        public let first: Int64
        public let last: Int64

        public init(start: Int64, rowCount: Int, first: Int64, last: Int64) {
            self.start = start
            self.rowCount = rowCount
            self.first = first
            self.last = last
        }
    }

    public let rowCount: Int
    /// Sorted by start; empty for a stream without timestamps (`survey_answers`).
    public let hours: [Hour]
    /// The name of the batch's `StreamFormat` (`iOS` or `Android`), from its header.
    public let format: String

    public init(rowCount: Int, hours: [Hour], format: String = "iOS") {
        self.rowCount = rowCount
        self.hours = hours
        self.format = format
    }

    public var first: Int64? { hours.map(\.first).min() }
    public var last: Int64? { hours.map(\.last).max() }
}

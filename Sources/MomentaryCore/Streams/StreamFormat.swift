import Foundation

/// One column set a phone writes for a stream. Header names are compared without the spaces
/// around them: Beiwe's Android app writes `timestamp, latitude, longitude, …`.
public struct StreamFormat: Sendable, Hashable {
    /// `iOS` or `Android`: the app that writes these columns.
    public let name: String
    public let columns: [StreamColumn]
    /// Values of the second column that make a row of just two (Android's survey-level events in
    /// survey_timings, which have no event column).
    public let messageRows: [String]

    public init(name: String, columns: [StreamColumn], messageRows: [String] = []) {
        self.name = name
        self.columns = columns
        self.messageRows = messageRows
    }

    public var header: [String] { columns.map(\.name) }
    public var headerLine: String { header.joined(separator: ",") }

    /// Whether `names` (a header split at its commas) is this format's header.
    public func matches(_ names: [String]) -> Bool {
        names.count == columns.count && zip(names, columns).allSatisfy { Self.trimmed($0) == $1.name }
    }

    /// How many of `names`, from the first, are this format's: to say where a wrong header goes wrong.
    func leadingMatches(_ names: [String]) -> Int {
        zip(names, columns).prefix { Self.trimmed($0) == $1.name }.count
    }

    static func trimmed(_ name: String) -> String { name.trimmingCharacters(in: [" "]) }

    /// Android's power_state events (`PowerStateListener.kt`), word for word.
    static let androidPowerEvents = [
        "Screen turned on", "Screen turned off", "Power connected", "Power disconnected",
        "Device shut down signal received", "Device reboot signal received",
        "Power Save Mode state change signal received; device in power save state.",
        "Power Save Mode change signal received; device not in power save state.",
        "Device Idle (Doze) state change signal received; device in idle state.",
        "Device Idle (Doze) state change signal received; device not in idle state.",
    ]
}

extension PassiveStream {
    /// The format whose header is `names`, or nil.
    public func format(ofHeader names: [String]) -> StreamFormat? { formats.first { $0.matches(names) } }
}

extension StreamFormat {
    /// A batch of `source`'s format with this format's columns, for an export that joins both:
    /// each column takes the value of the source's column of the same name, or is left empty.
    /// Records are kept in their order (the header becomes this format's).
    public func widened(_ csv: Data, from source: StreamFormat) -> Data {
        let positions = header.map { source.header.firstIndex(of: $0) }
        let text = String(decoding: csv, as: UTF8.self)
        var lines = StreamCSV.records(Substring(text)).map { String($0.text) }
        guard !lines.isEmpty else { return csv }
        lines[0] = headerLine
        for number in lines.indices.dropFirst() where !lines[number].isEmpty {
            let fields = StreamCSV.fields(of: Substring(lines[number]))
            // A message row keeps its two values in the first two columns.
            let values = fields.count == 2 && source.messageRows.contains(String(fields[1]))
                ? header.indices.map { $0 < 2 ? String(fields[$0]) : "" }
                : positions.map { position in position.flatMap { $0 < fields.count ? String(fields[$0]) : nil } ?? "" }
            lines[number] = values.joined(separator: ",")
        }
        return Data(lines.joined(separator: "\n").utf8)
    }
}

import Foundation
import MomentaryCore

/// The hour rows of a batch: the hours its rows fall in, or for a stream without times
/// (`survey_answers`) the hour it arrived.
enum StreamIndex {
    static func hours(of summary: StreamBatchSummary, stream: PassiveStream, receivedAt: Date) -> [StreamBatchSummary.Hour] {
        guard !stream.hasTimestamps else { return summary.hours }
        let milliseconds = receivedAt.milliseconds
        return [.init(start: StreamTimestamp.hourStart(of: milliseconds), rowCount: summary.rowCount, first: milliseconds, last: milliseconds)]
    }

    static func row(_ hour: StreamBatchSummary.Hour, batchID: UUID, participantID: UUID, stream: PassiveStream) -> StreamHour {
        let row = StreamHour()
        row.$batch.id = batchID
        row.$participant.id = participantID
        row.stream = stream.rawValue
        row.hourStart = Date(milliseconds: hour.start)
        row.firstMilliseconds = hour.first
        row.lastMilliseconds = hour.last
        row.rowCount = Int64(hour.rowCount)
        return row
    }
}

extension Date {
    /// Stream times are whole milliseconds since 1970.
    init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
}

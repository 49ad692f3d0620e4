import Fluent
import Foundation

/// One UTC hour of one batch: the index researchers' slices are read through.
final class StreamHour: Model, @unchecked Sendable {
    static let schema = "stream_hours"

    @ID(key: .id) var id: UUID?
    @Parent(key: "batch_id") var batch: StreamBatch
    @Parent(key: "participant_id") var participant: Participant
    @Field(key: "stream") var stream: String
    @Field(key: "hour_start") var hourStart: Date
    /// Earliest and latest row time in the hour, in milliseconds since 1970 (as in the CSV).
    @Field(key: "first_ms") var firstMilliseconds: Int64
    @Field(key: "last_ms") var lastMilliseconds: Int64
    @Field(key: "row_count") var rowCount: Int64

    init() {}
}

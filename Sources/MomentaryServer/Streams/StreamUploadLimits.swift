/// How much passive data the server takes: `MOMENTARY_STREAM_BATCH_LIMIT_MB` per batch (CSV bytes
/// after inflating; 413 above it) and `MOMENTARY_STREAM_DAILY_LIMIT_MB` per participant in any 24
/// hours (429 with `Retry-After` above it), so one phone gone wrong cannot fill the disk.
struct StreamUploadLimits: Sendable, Hashable {
    var batchBytes: Int
    var dailyBytes: Int

    /// A 10 Hz device-motion hour is about 7 MB of CSV; a day of every stream at 10 Hz about 350 MB.
    static let defaultBatchMegabytes = 16
    static let defaultDailyMegabytes = 1_024
    static let standard = StreamUploadLimits(batchBytes: defaultBatchMegabytes << 20, dailyBytes: defaultDailyMegabytes << 20)
}

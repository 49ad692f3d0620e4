/// The continuous sensor streams a phone uploads, in Beiwe's iOS CSV formats (seed `004_…`): the
/// names are the upload paths (`POST /api/v1/uploads/{stream}`), and each stream's columns are its
/// exact header with what every column may hold. Server, client and export all read this one table.
/// Beiwe's Android app writes some streams with other columns (`formats`); both are accepted.
public enum PassiveStream: String, CaseIterable, Codable, Sendable, Hashable {
    case gps, accelerometer, gyro, magnetometer, devicemotion
    case powerState = "power_state"
    case proximity, reachability
    case surveyAnswers = "survey_answers"
    case surveyTimings = "survey_timings"

    public var columns: [StreamColumn] {
        switch self {
        case .gps:
            [.timestamp, .number("latitude"), .number("longitude"), .number("altitude"), .number("accuracy")]
        case .accelerometer:
            // iOS has no accuracy; Beiwe puts the device type and OS version there instead.
            [.timestamp, .text("accuracy"), .number("x"), .number("y"), .number("z")]
        case .gyro, .magnetometer:
            [.timestamp, .number("x"), .number("y"), .number("z")]
        case .devicemotion:
            [.timestamp, .number("roll"), .number("pitch"), .number("yaw"),
             .number("rotation_rate_x"), .number("rotation_rate_y"), .number("rotation_rate_z"),
             .number("gravity_x"), .number("gravity_y"), .number("gravity_z"),
             .number("user_accel_x"), .number("user_accel_y"), .number("user_accel_z"),
             .oneOf("magnetic_field_calibration_accuracy", ["uncalibrated", "low", "medium", "high", "unknown"]),
             .number("magnetic_field_x"), .number("magnetic_field_y"), .number("magnetic_field_z")]
        case .powerState:
            // The 1.0.1+ format, with the battery level and the lock events.
            [.timestamp, .oneOf("event", ["Charging", "Full", "Unplugged", "PowerUnknown", "Locked", "Unlocked"]), .number("level")]
        case .proximity:
            [.timestamp, .oneOf("event", ["NearUser", "NotNearUser"])]
        case .reachability:
            [.timestamp, .oneOf("event", ["wifi", "cellular", "unreachable"])]
        case .surveyAnswers:
            // No timestamp: the batch is filed under the hour it arrived.
            [.text("question id"), .text("question type"), .text("question text"), .text("question answer options"), .text("answer")]
        case .surveyTimings:
            // `dismissing question` is what the current iOS app writes where older ones wrote `unpresent`.
            [.timestamp, .text("question id"), .text("question type"), .text("question text"),
             .text("question answer options"), .text("answer"),
             .oneOf("event", ["notified", "present", "unpresent", "dismissing question", "changed", "submitted", "expired"])]
        }
    }

    /// Every column set a Beiwe phone writes for this stream: iOS's (`columns`) first, then
    /// Android's where it differs (onnela-lab/beiwe-android `listeners/*.kt`,
    /// `SurveyTimingsRecorder.java`; see Tests/…/Fixtures/FORMATS.md §2).
    public var formats: [StreamFormat] {
        let iOS = StreamFormat(name: "iOS", columns: columns)
        switch self {
        case .gyro:
            return [iOS, StreamFormat(name: "Android", columns: [.timestamp, .text("accuracy"), .number("x"), .number("y"), .number("z")])]
        case .powerState:
            return [iOS, StreamFormat(name: "Android", columns: [.timestamp, .oneOf("event", StreamFormat.androidPowerEvents)])]
        case .surveyTimings:
            // No event column: Android writes its two survey-level events as the question id, alone on the row.
            return [iOS, StreamFormat(
                name: "Android", columns: Array(columns.dropLast()),
                messageRows: ["Survey first rendered and displayed to user", "User hit submit"])]
        default:
            return [iOS]
        }
    }

    /// The format called `name`, or nil for an unknown name.
    public func format(named name: String) -> StreamFormat? { formats.first { $0.name == name } }

    /// The column names in order, exactly as the first line of a batch must give them.
    public var header: [String] { columns.map(\.name) }

    /// The header line as it appears in the CSV (no line ending).
    public var headerLine: String { header.joined(separator: ",") }

    /// Whether the first column is the row's time in milliseconds since 1970 (all but `survey_answers`).
    public var hasTimestamps: Bool { columns.first?.kind == .timestamp }
}

/// One column of a stream: its header name and what its values may be.
public struct StreamColumn: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Whole milliseconds since 1970, within `StreamTimestamp.plausibleRange`.
        case timestamp
        /// A decimal number such as `-0.0123`, `42` or `1.5e-05`.
        case number
        /// Exactly one of these words (case matters, as Beiwe writes them).
        case oneOf([String])
        /// Anything, quoted as CSV quotes when it holds commas, quotes or line breaks.
        case text
    }

    public let name: String
    public let kind: Kind

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    static let timestamp = StreamColumn(name: "timestamp", kind: .timestamp)
    static func number(_ name: String) -> StreamColumn { StreamColumn(name: name, kind: .number) }
    static func text(_ name: String) -> StreamColumn { StreamColumn(name: name, kind: .text) }
    static func oneOf(_ name: String, _ values: [String]) -> StreamColumn { StreamColumn(name: name, kind: .oneOf(values)) }
}

/// Stream times: milliseconds since 1970 in UTC.
public enum StreamTimestamp {
    /// 2001-09-09 to 2100-01-01: anything outside is seconds sent as milliseconds, a counter or a clock gone wrong.
    public static let plausibleRange: ClosedRange<Int64> = 1_000_000_000_000...4_102_444_800_000
    public static let millisecondsPerHour: Int64 = 3_600_000

    /// The start of the UTC hour `milliseconds` falls in.
    public static func hourStart(of milliseconds: Int64) -> Int64 {
        milliseconds - milliseconds % millisecondsPerHour
    }
}

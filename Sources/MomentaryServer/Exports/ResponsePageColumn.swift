import Foundation

/// The columns of an export's page of responses, in the order the page query selects them. Each
/// says what selects it, the name it is selected as and how its value is read, so the SELECT list
/// and the positions rows are read at come from this one list: a column is added or moved here and
/// nowhere else. `sequence` comes last, and only in numbered exports.
enum ResponsePageColumn: Int, CaseIterable {
    case responseID, participantID, surveyID, surveyVersion, kind, beepID, volunteered, startedAt, submittedAt
    case receivedAt, delaySeconds, surveyTimings, beepScheduledAt, beepSentAt
    case contextID, latitude, longitude, altitude, horizontalAccuracy, verticalAccuracy, locatedAt, placeText, country
    case soundAverageDB, soundPeakDB, battery, connection, steps, impetus, weather, airQuality, pollen
    case participantLabel, participantTimezone, beepOrigin, language, keptAsIs, scores, presentedOrder, participantVariables
    case sequence

    /// The expression in the page query (over responses `r`, participants `p`, beeps `b` and
    /// response contexts `c`), the name of its result column, and how that is read.
    var definition: (expression: String, name: String, kind: ExportRows.Kind) {
        switch self {
        case .responseID: ("r.id", "response_id", .uuid)
        case .participantID: ("r.participant_id", "participant_id", .uuid)
        case .surveyID: ("r.survey_id", "survey_id", .uuid)
        case .surveyVersion: ("r.survey_version", "survey_version", .integer)
        case .kind: ("r.kind", "kind", .text)
        case .beepID: ("r.beep_id", "beep_id", .uuid)
        case .volunteered: ("r.volunteered", "volunteered", .bool)
        case .startedAt: ("r.started_at", "started_at", .date)
        case .submittedAt: ("r.submitted_at", "submitted_at", .date)
        case .receivedAt: ("r.received_at", "received_at", .date)
        case .delaySeconds: ("r.delay_seconds", "delay_seconds", .real)
        case .surveyTimings: ("r.survey_timings", "survey_timings", .text)
        case .beepScheduledAt: ("b.scheduled_at", "beep_scheduled_at", .date)
        case .beepSentAt: ("b.sent_at", "beep_sent_at", .date)
        case .contextID: ("c.id", "context_id", .uuid)
        case .latitude: ("c.latitude", "latitude", .real)
        case .longitude: ("c.longitude", "longitude", .real)
        case .altitude: ("c.altitude", "altitude", .real)
        case .horizontalAccuracy: ("c.horizontal_accuracy", "horizontal_accuracy", .real)
        case .verticalAccuracy: ("c.vertical_accuracy", "vertical_accuracy", .real)
        case .locatedAt: ("c.located_at", "located_at", .date)
        case .placeText: ("c.place_text", "place_text", .text)
        case .country: ("c.country", "country", .text)
        case .soundAverageDB: ("c.sound_average_db", "sound_average_db", .real)
        case .soundPeakDB: ("c.sound_peak_db", "sound_peak_db", .real)
        case .battery: ("c.battery", "battery", .real)
        case .connection: ("c.connection", "connection", .text)
        case .steps: ("c.steps", "steps", .integer)
        case .impetus: ("c.impetus", "impetus", .text)
        case .weather: ("c.weather", "weather", .text)
        case .airQuality: ("c.air_quality", "air_quality", .text)
        case .pollen: ("c.pollen", "pollen", .text)
        case .participantLabel: ("p.label", "participant_label", .text)
        case .participantTimezone: ("COALESCE(r.timezone, p.timezone)", "participant_timezone", .text)
        case .beepOrigin: ("b.origin", "beep_origin", .text)
        case .language: ("r.language", "language", .text)
        case .keptAsIs: ("r.kept_as_is", "kept_as_is", .text)
        case .scores: ("r.scores", "scores", .text)
        case .presentedOrder: ("r.presented_order", "presented_order", .text)
        case .participantVariables: ("p.variables", "participant_variables", .text)
        case .sequence: ("""
            (SELECT COUNT(*) FROM responses s WHERE s.participant_id = r.participant_id
                AND (s.submitted_at < r.submitted_at OR (s.submitted_at = r.submitted_at AND s.id <= r.id)))
            """, "sequence", .integer)
        }
    }

    /// The columns a page selects, in order.
    static func selected(numbered: Bool) -> ArraySlice<ResponsePageColumn> {
        numbered ? allCases[...] : allCases.dropLast()
    }

    /// The page query's SELECT list (without `SELECT`), every column named as `definition` says.
    static func selectList(numbered: Bool) -> String {
        numbered ? numberedList : unnumberedList
    }

    /// How `ExportRows` reads the columns `selectList` selects.
    static func rows(numbered: Bool) -> ExportRows {
        numbered ? numberedRows : unnumberedRows
    }

    private static let numberedList = list(numbered: true)
    private static let unnumberedList = list(numbered: false)
    private static let numberedRows = ExportRows(columns: selected(numbered: true).map { ($0.definition.name, $0.definition.kind) })
    private static let unnumberedRows = ExportRows(columns: selected(numbered: false).map { ($0.definition.name, $0.definition.kind) })

    private static func list(numbered: Bool) -> String {
        selected(numbered: numbered).map { "\($0.definition.expression) AS \($0.definition.name)" }.joined(separator: ", ")
    }
}

/// Reading a page row's value by the column's case rather than by a number.
extension ExportRow {
    func text(_ column: ResponsePageColumn) -> String? { text(column.rawValue) }
    func integer(_ column: ResponsePageColumn) -> Int? { integer(column.rawValue) }
    func real(_ column: ResponsePageColumn) -> Double? { real(column.rawValue) }
    func bool(_ column: ResponsePageColumn) -> Bool? { bool(column.rawValue) }
    func date(_ column: ResponsePageColumn) -> Date? { date(column.rawValue) }
    func uuid(_ column: ResponsePageColumn) -> UUID? { uuid(column.rawValue) }

    func required<T>(_ column: ResponsePageColumn, _ read: (Int) -> T?) throws -> T {
        try required(column.rawValue, read)
    }

    /// Whether the row has `column` (`sequence` only in numbered pages).
    func has(_ column: ResponsePageColumn) -> Bool { values.count > column.rawValue }
}

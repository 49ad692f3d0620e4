import Foundation

/// One row per response with what the phone sensed (the context CSV and the workbook's Context
/// sheet). Responses without any context still have a row, with the context columns empty.
/// Battery is the 0…1 fraction the app reports; steps count since the previous response. The
/// environment columns (`weather`, `air_quality`, `pollen`) hold the stored JSON text unchanged,
/// since their fields depend on the provider; the workbook's Environment sheet spreads them out.
enum ContextTable {
    static let header = ResponseColumns.header + [
        "latitude", "longitude", "altitude", "horizontal_accuracy",
        "vertical_accuracy", "located_at_utc", "located_at_local", "place", "country", "sound_average_db", "sound_peak_db",
        "battery", "connection", "steps", "impetus", "weather", "air_quality", "pollen",
    ]

    static func row(for record: ExportRecord, study: String) -> [ExportCell] {
        let context = record.context
        return ResponseColumns.cells(for: record, study: study) + [
            ExportCell(context?.latitude), ExportCell(context?.longitude), ExportCell(context?.altitude),
            ExportCell(context?.horizontalAccuracy), ExportCell(context?.verticalAccuracy),
        ] + ResponseColumns.timePair(context?.locatedAt, record.timeZone) + [
            ExportCell(context?.place), ExportCell(context?.country),
            ExportCell(context?.soundAverageDB), ExportCell(context?.soundPeakDB), ExportCell(context?.battery),
            ExportCell(context?.connection), ExportCell(context?.steps), ExportCell(context?.impetus),
            ExportCell(context?.weather), ExportCell(context?.airQuality), ExportCell(context?.pollen),
        ]
    }
}

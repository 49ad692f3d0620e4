import Foundation

/// One logical sheet that may outgrow Excel's 1,048,576 rows: when a sheet is full, the rows
/// continue on `Name (2)`, `Name (3)`, … each with the header again. A study with a million
/// answers stays openable instead of failing or being cut short.
final class XLSXSheetSeries {
    /// Excel's row limit, less the header row.
    static let excelDataRowLimit = 1_048_575

    private let baseName: String
    private let directory: URL
    private let maxDataRows: Int
    private var current: XLSXSheetWriter?
    private var finished: [XLSXSheet] = []
    /// Unique among all series of a workbook, so their temporary files never collide.
    private let fileStem: String

    init(name: String, fileStem: String, directory: URL, maxDataRows: Int = excelDataRowLimit) {
        self.baseName = name
        self.fileStem = fileStem
        self.directory = directory
        self.maxDataRows = max(1, maxDataRows)
    }

    func append(_ cells: [ExportCell], header: () -> [String]) throws {
        try writer(header: header).append(cells)
    }

    func append(sparse cells: [(column: Int, cell: ExportCell)], header: () -> [String]) throws {
        try writer(header: header).append(sparse: cells)
    }

    /// All sheets of the series, in order; one sheet with just the header when no row was added.
    func finish(header: [String]) throws -> [XLSXSheet] {
        let last = try current ?? startSheet()
        finished.append(try last.finish(header: header))
        current = nil
        return finished
    }

    private func writer(header: () -> [String]) throws -> XLSXSheetWriter {
        if let current, current.dataRows < maxDataRows { return current }
        if let full = current {
            finished.append(try full.finish(header: header()))
        }
        let next = try startSheet()
        current = next
        return next
    }

    private func startSheet() throws -> XLSXSheetWriter {
        let number = finished.count + 1
        let name = number == 1 ? baseName : "\(baseName) (\(number))"
        return try XLSXSheetWriter(name: name, bodyURL: directory.appendingPathComponent("\(fileStem)-\(number).xml"))
    }
}

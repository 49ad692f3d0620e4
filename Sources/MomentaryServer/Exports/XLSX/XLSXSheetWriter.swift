import Foundation

/// A worksheet finished on disk: its XML is `head`, then the body file, then `tail`. The header row
/// lives in `head`, written when the sheet is finished, so a sheet whose columns are discovered
/// along the way (Environment) still starts with its header.
struct XLSXSheet: Sendable {
    let name: String
    let head: Data
    let bodyURL: URL
    let bodySize: Int64
    let tail: Data
    let dataRows: Int

    var size: Int64 { Int64(head.count) + bodySize + Int64(tail.count) }
}

/// Appends the data rows of one worksheet to a temporary file, a buffer at a time.
final class XLSXSheetWriter {
    let name: String
    private(set) var dataRows = 0
    private let bodyURL: URL
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var bodySize: Int64 = 0
    private static let flushThreshold = 256 * 1024

    init(name: String, bodyURL: URL) throws {
        self.name = name
        self.bodyURL = bodyURL
        guard FileManager.default.createFile(atPath: bodyURL.path, contents: nil) else {
            throw ExportRequestError("Could not create a temporary file for the workbook at \(bodyURL.path).")
        }
        self.handle = try FileHandle(forWritingTo: bodyURL)
    }

    /// A row of cells from the first column on.
    func append(_ cells: [ExportCell]) throws {
        try append(sparse: cells.enumerated().map { (column: $0.offset, cell: $0.element) })
    }

    /// A row of cells at the given columns, which must be ascending.
    func append(sparse cells: [(column: Int, cell: ExportCell)]) throws {
        dataRows += 1
        // Row 1 is the header.
        XLSXCellXML.writeRow(dataRows + 1, cells: cells, into: &buffer)
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Closes the body and describes the complete sheet.
    func finish(header: [String]) throws -> XLSXSheet {
        try flush()
        try handle.close()
        let head = XLSXPackage.worksheetStart + XLSXCellXML.headerRow(header)
        return XLSXSheet(
            name: name, head: Data(head.utf8), bodyURL: bodyURL, bodySize: bodySize,
            tail: Data(XLSXPackage.worksheetEnd.utf8), dataRows: dataRows)
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        bodySize += Int64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }
}

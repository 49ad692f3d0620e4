import Fluent
import Foundation
import MomentaryCore
import NIOPosix
import ZIPFoundation

/// Several participants' or streams' CSVs in one ZIP, one `<participant>/<stream>.csv` entry each
/// (`StreamExportSelection.name`). Each CSV is written to a scratch file a day at a time and added
/// before the next is read, so memory holds one day of one stream. The ZIP and the scratch CSV are
/// written beside the destination, and the ZIP moved into place whole.
enum StreamArchive {
    struct Summary {
        var entries = 0
        var rows = 0
        var batches = 0
    }

    static func write(
        _ selection: StreamExportSelection, from: Date?, end: Date?, to destination: URL, blobs: BlobStore, on db: any Database
    ) async throws -> Summary {
        let folder = try ScratchFolder.make(beside: destination)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("entry.csv")
        return try await AtomicFile.place(at: destination) { zip in
            _ = try Archive(url: zip, accessMode: .create)
            var summary = Summary()
            for participant in selection.participants {
                let name = try StreamExportSelection.name(of: participant)
                for stream in selection.streams {
                    let written = try await StreamExport.write(
                        participantID: try participant.requireID(), stream: stream, from: from, end: end, to: file, blobs: blobs, on: db)
                    // Deflating can take seconds for a long stream: off the async executor, as the study
                    // archive does, reopening the ZIP to add each entry (an archive is not Sendable).
                    let path = "\(name)/\(stream.rawValue).csv"
                    try await NIOThreadPool.singleton.runIfActive {
                        try Archive(url: zip, accessMode: .update).addEntry(with: path, fileURL: file, compressionMethod: .deflate)
                        try FileManager.default.removeItem(at: file)
                    }
                    summary.entries += 1
                    summary.rows += written.rows
                    summary.batches += written.batches
                }
            }
            return summary
        }
    }
}

extension StreamExport {
    /// Writes the CSV to a new file at `url`, replacing any there.
    static func write(
        participantID: UUID, stream: PassiveStream, from: Date?, end: Date?, to url: URL, blobs: BlobStore, on db: any Database
    ) async throws -> Summary {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        return try await write(participantID: participantID, stream: stream, from: from, end: end, blobs: blobs, on: db) {
            try handle.write(contentsOf: $0)
        }
    }
}

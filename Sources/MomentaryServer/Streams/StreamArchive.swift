import Fluent
import Foundation
import MomentaryCore
import ZIPFoundation

/// Several participants' or streams' CSVs in one ZIP, one `<participant>/<stream>.csv` entry each
/// (the participant by label, or by id when it has none). Each CSV is made and added before the
/// next is read, so only one slice is in memory at a time. The ZIP is written beside its
/// destination and moved into place whole.
enum StreamArchive {
    struct Summary {
        var entries = 0
        var rows = 0
        var batches = 0
    }

    static func write(
        participants: [Participant], streams: [PassiveStream], from: Date?, end: Date?, to destination: URL,
        blobs: BlobStore, on db: any Database
    ) async throws -> Summary {
        let folder = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).part")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let zip = folder.appendingPathComponent("streams.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        var summary = Summary()
        for participant in participants {
            let name = try participant.label ?? participant.requireID().uuidString.lowercased()
            for stream in streams {
                let result = try await StreamExport.csv(
                    participantID: try participant.requireID(), stream: stream, from: from, end: end, blobs: blobs, on: db)
                let file = folder.appendingPathComponent("entry.csv")
                try result.csv.write(to: file)
                try archive.addEntry(with: "\(name)/\(stream.rawValue).csv", fileURL: file, compressionMethod: .deflate)
                try FileManager.default.removeItem(at: file)
                summary.entries += 1
                summary.rows += result.rows
                summary.batches += result.batches
            }
        }
        if FileManager.default.fileExists(atPath: destination.path) { try FileManager.default.removeItem(at: destination) }
        try FileManager.default.moveItem(at: zip, to: destination)
        return summary
    }
}

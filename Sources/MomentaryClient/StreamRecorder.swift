import Foundation
import MomentaryCore

/// Where a phone app puts passive sensor readings. Each row is checked and appended to its
/// stream's file on disk at once; `cutBatches` (or a file growing past `batchBytes`) turns the
/// files into batches in the persistent upload queue, where they go out after everything the
/// participant did. The app only appends rows.
///
/// A batch is cut by renaming the stream's file to `<stream>.<key>.batch` before queuing it, so a
/// crash at any point leaves either rows still to cut or a named batch that the next start queues
/// again under the same key (the server keeps one copy per key). A crash mid-append can leave a
/// stream's file ending in part of a row; the next start cuts that part off, so it cannot spoil
/// the rows written before it or after it.
public actor StreamRecorder {
    public let directory: URL
    let queue: UploadQueue
    /// A stream's file is cut into a batch once it reaches this many bytes.
    public let batchBytes: Int

    static let batchSuffix = ".batch"
    private static let lineFeed = UInt8(ascii: "\n")

    public init(directory: URL, queue: UploadQueue, batchBytes: Int = 4 << 20) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.queue = queue
        self.batchBytes = batchBytes
        for stream in PassiveStream.allCases { try dropTornRow(of: stream) }
        try await queueLeftoverBatches()
    }

    /// Appends readings to a stream: each row is one CSV line in the stream's format, without the
    /// header or a line ending. Nothing is written if any row is refused.
    public func append(_ rows: [String], to stream: PassiveStream) async throws {
        guard !rows.isEmpty else { return }
        let text = rows.joined(separator: "\n") + "\n"
        _ = try StreamBatchValidator.validate(Data((stream.headerLine + "\n" + text).utf8), as: stream)
        let file = openFile(of: stream)
        if !FileManager.default.fileExists(atPath: file.path) {
            guard FileManager.default.createFile(atPath: file.path, contents: Data((stream.headerLine + "\n").utf8)) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
            }
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        if Int(size) + text.utf8.count >= batchBytes {
            try await cut(stream)
        }
    }

    /// Queues every stream's rows recorded so far as one batch per stream; returns the batches.
    @discardableResult
    public func cutBatches() async throws -> [StreamBatchUpload] {
        var batches: [StreamBatchUpload] = []
        for stream in PassiveStream.allCases {
            if let batch = try await cut(stream) { batches.append(batch) }
        }
        return batches
    }

    @discardableResult
    private func cut(_ stream: PassiveStream) async throws -> StreamBatchUpload? {
        let file = openFile(of: stream)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let named = directory.appendingPathComponent("\(stream.rawValue).\(UUID().uuidString.lowercased())\(Self.batchSuffix)")
        try FileManager.default.moveItem(at: file, to: named)
        return try await queueBatch(at: named)
    }

    private func queueBatch(at url: URL) async throws -> StreamBatchUpload? {
        let parts = url.lastPathComponent.dropLast(Self.batchSuffix.count).split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let stream = PassiveStream(rawValue: parts[0]) else { return nil }
        let batch = StreamBatchUpload(stream: stream, idempotencyKey: parts[1], csv: try Data(contentsOf: url))
        if batch.csv == Data((stream.headerLine + "\n").utf8) {
            try AtomicFile.remove(url) // a header written just before a crash, no rows
            return nil
        }
        do {
            try await queue.enqueue(.streamBatch(batch))
        } catch is UploadQueueError {
            // A row torn by a crash mid-write: kept beside the queue for inspection, never sent.
            try FileManager.default.moveItem(at: url, to: url.appendingPathExtension("refused"))
            return nil
        }
        try AtomicFile.remove(url)
        return batch
    }

    /// Batches cut before a crash but not yet handed to the queue.
    private func queueLeftoverBatches() async throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(Self.batchSuffix) }.sorted()
        for name in names {
            try await queueBatch(at: directory.appendingPathComponent(name))
        }
    }

    /// Cuts a stream's file back to its last line break, when a crash left part of a row after it.
    private func dropTornRow(of stream: PassiveStream) throws {
        let file = openFile(of: stream)
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        let handle = try FileHandle(forUpdating: file)
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        guard size > 0 else { return }
        try handle.seek(toOffset: size - 1)
        guard try handle.read(upToCount: 1) != Data([Self.lineFeed]) else { return }
        try handle.seek(toOffset: 0)
        let text = try handle.readToEnd() ?? Data()
        let kept = text.lastIndex(of: Self.lineFeed).map { text.distance(from: text.startIndex, to: $0) + 1 } ?? 0
        try handle.truncate(atOffset: UInt64(kept))
        try handle.synchronize()
    }

    private func openFile(of stream: PassiveStream) -> URL {
        directory.appendingPathComponent("\(stream.rawValue).csv")
    }
}

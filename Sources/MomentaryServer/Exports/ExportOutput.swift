import Foundation
import NIOCore

/// Where an export's bytes go, a chunk at a time: an HTTP response body, a file, standard output.
/// The export awaits each call, so a slow reader slows the export instead of filling memory.
public typealias ExportSink = @Sendable (ByteBuffer) async throws -> Void

/// Collects an export's text into chunks of about `chunkSize` bytes and hands each to the sink.
final class ExportOutput {
    private let sink: ExportSink
    private let chunkSize: Int
    private var buffer: ByteBuffer
    private(set) var bytesWritten = 0

    init(sink: @escaping ExportSink, chunkSize: Int = 256 * 1024) {
        self.sink = sink
        self.chunkSize = chunkSize
        self.buffer = ByteBufferAllocator().buffer(capacity: chunkSize)
    }

    func write(_ text: String) async throws {
        buffer.writeString(text)
        if buffer.readableBytes >= chunkSize { try await flush() }
    }

    func write(bytes: [UInt8]) async throws {
        buffer.writeBytes(bytes)
        if buffer.readableBytes >= chunkSize { try await flush() }
    }

    /// Hands over what is buffered; call once at the end.
    func flush() async throws {
        guard buffer.readableBytes > 0 else { return }
        let chunk = buffer
        bytesWritten += chunk.readableBytes
        // A fresh buffer, so the sink may keep the chunk it was given without a copy being made.
        buffer = ByteBufferAllocator().buffer(capacity: chunkSize)
        try await sink(chunk)
    }

    /// Streams a file (a finished workbook) to the sink.
    func write(fileAt url: URL) async throws {
        try await flush()
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        while let data = try handle.read(upToCount: chunkSize), !data.isEmpty {
            var chunk = ByteBufferAllocator().buffer(capacity: data.count)
            chunk.writeBytes(data)
            bytesWritten += data.count
            try await sink(chunk)
        }
    }
}

import Foundation
import ZIPFoundation
import CZlib

/// gzip (RFC 1952) around ZIPFoundation's raw deflate, which wraps the system zlib: stream batches
/// arrive with `Content-Encoding: gzip` and are kept as `.csv.gz` files that `zcat` reads.
/// Uploads may hold several members; what is kept is written as one.
enum Gzip {
    enum Failure: Error, Equatable {
        case notGzip
        case corrupt
        /// Inflating went past this many bytes (a small upload that expands enormously).
        case tooLarge(limit: Int)
    }

    private static let fixedHeader: [UInt8] = [0x1F, 0x8B, 0x08]

    static func compress(_ data: Data) throws -> Data {
        var output = Data(fixedHeader + [0, 0, 0, 0, 0, 0, 0xFF]) // no flags, no time, unknown OS
        let chunk = 256 * 1024
        let checksum = try Data.compress(size: Int64(data.count), bufferSize: chunk, provider: { position, size in
            data.subdata(in: data.startIndex + Int(position)..<data.startIndex + Int(position) + size)
        }, consumer: { output.append($0) })
        appendLittleEndian(checksum, to: &output)
        appendLittleEndian(UInt32(truncatingIfNeeded: data.count), to: &output)
        return output
    }

    /// The uncompressed bytes; refuses anything that is not a series of intact gzip members
    /// (`cat a.gz b.gz` is valid RFC 1952, and some clients append batches that way) or that
    /// would inflate to more than `limit` bytes. zlib's gzip mode checks each header, CRC and length.
    static func decompress(_ gzip: Data, limit: Int) throws -> Data {
        guard gzip.count >= 18, gzip.prefix(3).elementsEqual(fixedHeader) else { throw Failure.notGzip }
        var stream = z_stream()
        guard inflateInit2_(&stream, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure.corrupt
        }
        defer { inflateEnd(&stream) }
        var input = [UInt8](gzip)
        var output = Data()
        var piece = [UInt8](repeating: 0, count: 64 * 1024)
        try input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputBuffer.count)
            while true {
                let result = piece.withUnsafeMutableBufferPointer { pieceBuffer in
                    stream.next_out = pieceBuffer.baseAddress
                    stream.avail_out = UInt32(pieceBuffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = piece.count - Int(stream.avail_out)
                guard output.count + produced <= limit else { throw Failure.tooLarge(limit: limit) }
                output.append(contentsOf: piece[0..<produced])
                switch result {
                case Z_STREAM_END:
                    guard stream.avail_in > 0 else { return } // the last member ended with the input
                    guard inflateReset(&stream) == Z_OK else { throw Failure.corrupt }
                case Z_OK:
                    // Input used up with room left for output: the member was cut short.
                    if stream.avail_in == 0 && stream.avail_out > 0 { throw Failure.corrupt }
                default:
                    throw Failure.corrupt
                }
            }
        }
        return output
    }

    private static func appendLittleEndian(_ value: UInt32, to data: inout Data) {
        data.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)])
    }
}

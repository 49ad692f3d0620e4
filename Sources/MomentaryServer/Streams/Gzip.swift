import Foundation
import ZIPFoundation

/// gzip (RFC 1952) around ZIPFoundation's raw deflate, which wraps the system zlib: stream batches
/// arrive with `Content-Encoding: gzip` and are kept as `.csv.gz` files that `zcat` reads.
/// One member per file, as `gzip` and HTTP clients write them.
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

    /// The uncompressed bytes; refuses anything that is not one intact gzip member or that would
    /// inflate to more than `limit` bytes.
    static func decompress(_ gzip: Data, limit: Int) throws -> Data {
        let bytes = [UInt8](gzip)
        guard bytes.count >= 18, Array(bytes[0..<3]) == fixedHeader else { throw Failure.notGzip }
        let flags = bytes[3]
        var position = 10
        if flags & 0x04 != 0 { // FEXTRA: a length, then that many bytes
            guard position + 2 <= bytes.count else { throw Failure.corrupt }
            position += 2 + (Int(bytes[position]) | Int(bytes[position + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 { // FNAME, FCOMMENT: zero-terminated
            while position < bytes.count, bytes[position] != 0 { position += 1 }
            position += 1
        }
        if flags & 0x02 != 0 { position += 2 } // FHCRC
        let trailer = bytes.count - 8
        guard position < trailer else { throw Failure.corrupt }
        // ZIPFoundation tells zlib a whole buffer of input is there, so the stream is padded to the
        // buffer's size (zlib stops at the stream's end; a damaged stream fails the checks below).
        let bufferSize = max(trailer - position, 64 * 1024)
        var deflated = Data(bytes[position..<trailer])
        deflated.append(Data(count: bufferSize - deflated.count))
        var output = Data()
        let checksum: CRC32
        do {
            checksum = try Data.decompress(size: Int64(bufferSize), bufferSize: bufferSize, skipCRC32: false, provider: { offset, _ in
                // zlib is handed the whole stream at once; asking again means it ended early.
                guard offset == 0 else { throw Failure.corrupt }
                return deflated
            }, consumer: { piece in
                guard output.count + piece.count <= limit else { throw Failure.tooLarge(limit: limit) }
                output.append(piece)
            })
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure.corrupt
        }
        guard checksum == littleEndian(bytes, at: trailer),
              UInt32(truncatingIfNeeded: output.count) == littleEndian(bytes, at: trailer + 4)
        else { throw Failure.corrupt }
        return output
    }

    private static func appendLittleEndian(_ value: UInt32, to data: inout Data) {
        data.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)])
    }

    private static func littleEndian(_ bytes: [UInt8], at position: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[position + $1]) << (8 * $1) }
    }
}

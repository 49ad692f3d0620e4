import Foundation

/// Checks that bytes are one whole JPEG: segments from SOI to EOI, the compressed scans between
/// them, nothing after EOI, and a picture of at most `maximumPixels`. A file that merely starts
/// and ends with the right markers can hide a ZIP or a page of HTML in between; a header can
/// claim 65,500 × 65,500 pixels to exhaust whoever decodes it.
public enum JPEGStructure {
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// 40 megapixels: more than any phone camera of 2026 writes.
    public static let maximumPixels = 40_000_000

    /// The picture's width and height, or the first thing wrong with the file.
    public static func check(_ data: Data) throws(Problem) -> (width: Int, height: Int) {
        let bytes = [UInt8](data)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw Problem(description: "it does not start as a JPEG does") }
        var size: (width: Int, height: Int)?
        var index = 2
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { throw Problem(description: "its structure is broken at byte \(index)") }
            let marker = bytes[index + 1]
            switch marker {
            case 0xFF:
                index += 1  // a fill byte before a marker
            case 0xD9:
                guard index + 2 == bytes.count else {
                    throw Problem(description: "\(bytes.count - index - 2) bytes follow the end of the image")
                }
                guard let size else { throw Problem(description: "it has no picture header") }
                return size
            case 0xD0...0xD7, 0x01:
                index += 2
            default:
                guard index + 3 < bytes.count else { throw Problem(description: "it is cut short") }
                let end = index + 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
                guard end > index + 3, end <= bytes.count else { throw Problem(description: "a segment runs past the end") }
                if isFrameHeader(marker) {
                    guard end - index >= 9 else { throw Problem(description: "its picture header is cut short") }
                    let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                    let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                    guard width > 0, height > 0 else { throw Problem(description: "its picture is \(width) × \(height) pixels") }
                    guard width * height <= maximumPixels else {
                        throw Problem(description: "its picture of \(width) × \(height) pixels is larger than \(maximumPixels / 1_000_000) megapixels")
                    }
                    size = (width, height)
                }
                index = marker == 0xDA ? endOfScan(bytes, from: end) : end
            }
        }
        throw Problem(description: "it does not end with the end-of-image marker")
    }

    /// SOF0–SOF15, less DHT (C4), JPG (C8) and DAC (CC), which share the range.
    private static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
    }

    /// Where the compressed data after a start-of-scan ends: at the first marker that is neither a
    /// stuffed FF 00 nor a restart marker.
    private static func endOfScan(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF, bytes[index + 1] != 0x00, !(0xD0...0xD7).contains(bytes[index + 1]) { return index }
            index += 1
        }
        return bytes.count
    }
}

import Foundation

/// Small JPEGs with the structure an upload must have (`JPEGStructure`): JFIF, a quantisation
/// table, a frame header, one scan whose bytes vary with `payload`, and the end-of-image marker;
/// `exif` adds an APP1 block of metadata, as a phone's camera writes one.
enum TestJPEG {
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static func make(_ payload: [UInt8] = [0x12, 0x34], exif: String? = nil, width: Int = 1, height: Int = 1) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8] + segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        if let exif { bytes += segment(0xE1, Array("Exif\0\0\(exif)".utf8)) }
        bytes += segment(0xDB, [0, 1, 2, 3])
        bytes += segment(0xC0, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
        // Scan bytes never hold FF, so they are all picture.
        bytes += segment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + payload.map { $0 == 0xFF ? 0xFE : $0 } + [0xFF, 0xD9]
        return Data(bytes)
    }

    static func make(_ text: String) -> Data { make(Array(text.utf8)) }
}

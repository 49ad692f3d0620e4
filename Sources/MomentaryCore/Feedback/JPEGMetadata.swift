import Foundation

/// Removes what a JPEG says about where, when and with what it was taken, keeping the picture:
/// the EXIF block (with its GPS position), XMP, IPTC, comments and every other application segment
/// except JFIF (APP0), an ICC colour profile (APP2 `ICC_PROFILE`) and Adobe's colour flag (APP14),
/// which decoders need to show the colours right.
public enum JPEGMetadata {
    /// The JPEG without its metadata, or nil when `data` is not a well-formed JPEG.
    public static func stripped(_ data: Data) -> Data? {
        let bytes = [UInt8](data)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(bytes.count)
        var index = 2
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }  // fill byte
            if marker == 0xD9 { output += [0xFF, 0xD9]; return Data(output) }
            // Markers without a length: restart markers and TEM.
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { output += [0xFF, marker]; index += 2; continue }
            guard index + 3 < bytes.count else { return nil }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let end = index + 2 + length
            guard length >= 2, end <= bytes.count else { return nil }
            if marker == 0xDA {
                // Start of scan: the compressed picture follows; everything to the end is kept.
                output += bytes[index...]
                return Data(output)
            }
            if keeps(marker: marker, payload: bytes[(index + 4)..<end]) { output += bytes[index..<end] }
            index = end
        }
        return nil
    }

    private static func keeps(marker: UInt8, payload: ArraySlice<UInt8>) -> Bool {
        switch marker {
        case 0xE0, 0xEE: true
        case 0xE2: payload.starts(with: Array("ICC_PROFILE".utf8))
        case 0xE1, 0xE3...0xED, 0xEF, 0xFE: false
        default: true  // tables, frame headers and the rest of the picture's structure
        }
    }
}

import Foundation
import MomentaryCore
import Testing

@Suite("Public photos lose their metadata")
struct JPEGMetadataTests {
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// A JPEG's structure with EXIF (a GPS position), XMP, a comment and an ICC profile.
    static let withMetadata: [UInt8] = [0xFF, 0xD8]
        + segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        + segment(0xE1, Array("Exif\0\0GPSLatitude 51.5007 GPSLongitude -0.1246".utf8))
        + segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>Home</x:xmpmeta>".utf8))
        + segment(0xE2, Array("ICC_PROFILE\0profile".utf8))
        + segment(0xFE, Array("Taken at 12 Acacia Avenue".utf8))
        + segment(0xDB, [0, 1, 2, 3])
        + segment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xD9]

    @Test("EXIF, XMP and comments go; the picture, JFIF and colour profile stay")
    func strips() throws {
        let clean = try #require(JPEGMetadata.stripped(Data(Self.withMetadata)))
        let text = String(decoding: clean, as: UTF8.self)
        #expect(!text.contains("Exif") && !text.contains("GPS") && !text.contains("xmpmeta") && !text.contains("Acacia"))
        #expect(text.contains("JFIF") && text.contains("ICC_PROFILE"))
        #expect(clean.suffix(19) == Data(Self.segment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xD9]),
                "the scan is copied byte for byte")
        #expect(JPEGMetadata.stripped(clean) == clean, "stripping twice changes nothing")
    }

    @Test("what is not a whole JPEG is refused")
    func refuses() {
        #expect(JPEGMetadata.stripped(Data("GIF89a".utf8)) == nil)
        #expect(JPEGMetadata.stripped(Data(Self.withMetadata.prefix(30))) == nil, "cut inside a segment")
        #expect(JPEGMetadata.stripped(Data([0xFF, 0xD8, 0x00, 0x01])) == nil)
    }

    @Test("coordinates are rounded to two places, times to the hour")
    func rounding() {
        #expect(PublicStatisticsRules.rounded(51.5007) == 51.5 && PublicStatisticsRules.rounded(-0.1246) == -0.12)
        let date = Date(timeIntervalSince1970: 1_790_000_123)
        #expect(PublicStatisticsRules.hour(of: date).timeIntervalSince1970 == 1_789_999_200)
    }
}

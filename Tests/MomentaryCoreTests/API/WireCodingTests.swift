import Foundation
import Testing
@testable import MomentaryCore

@Suite("Wire dates")
struct WireCodingTests {
    private struct Stamp: Codable, Equatable {
        var at: Date
    }

    @Test("whole-second UTC dates decode")
    func decodesWholeSeconds() throws {
        let stamp = try Wire.decode(Stamp.self, #"{"at": "2026-03-29T08:14:00Z"}"#)
        #expect(stamp.at == Date(timeIntervalSince1970: 1_774_772_040))
    }

    @Test("fractional seconds and offsets decode to the same instant family")
    func decodesFractionAndOffset() throws {
        let fractional = try Wire.decode(Stamp.self, #"{"at": "2026-03-29T08:14:00.250Z"}"#)
        #expect(abs(fractional.at.timeIntervalSince1970 - 1_774_772_040.25) < 0.0005)
        let offset = try Wire.decode(Stamp.self, #"{"at": "2026-03-29T09:14:00+01:00"}"#)
        #expect(offset.at == Date(timeIntervalSince1970: 1_774_772_040))
    }

    @Test("dates without a zone, or not ISO 8601, are rejected", arguments: [
        "2026-03-29T08:14:00", "2026-03-29 08:14:00Z", "29/03/2026", "2026-03-29T08:14:00Zjunk", "",
    ])
    func rejectsAmbiguousDates(text: String) {
        #expect(throws: DecodingError.self) {
            try Wire.decode(Stamp.self, #"{"at": "\#(text)"}"#)
        }
    }

    @Test("encoding writes whole seconds plainly and fractions to the millisecond")
    func encodesDates() throws {
        #expect(WireCoding.string(from: Date(timeIntervalSince1970: 1_774_772_040)) == "2026-03-29T08:14:00Z")
        #expect(WireCoding.string(from: Date(timeIntervalSince1970: 1_774_772_040.5)) == "2026-03-29T08:14:00.500Z")
        #expect(WireCoding.string(from: Date(timeIntervalSince1970: 1_774_772_040.123)) == "2026-03-29T08:14:00.123Z")
        #expect(WireCoding.string(from: Date(timeIntervalSince1970: 1_774_772_040.0504)) == "2026-03-29T08:14:00.050Z")
        #expect(WireCoding.string(from: Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59.750Z")
        let encoded = try Wire.encodeObject(Stamp(at: Date(timeIntervalSince1970: 1_774_772_040)))
        #expect(encoded["at"] == .string("2026-03-29T08:14:00Z"))
    }

    @Test("a date survives encoding and decoding to the millisecond")
    func roundTrips() throws {
        let original = Stamp(at: Date(timeIntervalSince1970: 1_774_772_040.123))
        let data = try WireCoding.makeEncoder().encode(original)
        let decoded = try WireCoding.makeDecoder().decode(Stamp.self, from: data)
        #expect(abs(decoded.at.timeIntervalSince(original.at)) < 0.0005)
    }
}

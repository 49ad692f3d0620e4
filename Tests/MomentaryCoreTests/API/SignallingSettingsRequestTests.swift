import Foundation
import Testing
@testable import MomentaryCore

@Suite("Signalling settings requests (hours may be left out)")
struct SignallingSettingsRequestTests {
    @Test("The settings every client sends today read as before, and write the same JSON")
    func completeSettings() throws {
        let json = #"{"beeps_per_day": 3, "start": "08:00", "end": "22:00", "sound": "chime"}"#
        let request = try Wire.decode(SignallingSettingsRequest.self, json)
        let settings = try Wire.decode(SignallingSettings.self, json)
        #expect(request == SignallingSettingsRequest(settings))
        let encoder = WireCoding.makeEncoder()
        #expect(try encoder.encode(request) == encoder.encode(settings))
        #expect(try encoder.encode(SignallingSettingsRequest(.standard)) == encoder.encode(SignallingSettings.standard))
    }

    @Test("Hours may be left out, and are then left out when written")
    func hoursLeftOut() throws {
        let request = try Wire.decode(SignallingSettingsRequest.self, #"{"beeps_per_day": 2}"#)
        #expect(request == SignallingSettingsRequest(beepsPerDay: 2))
        #expect(try Wire.encodeObject(request) == ["beeps_per_day": .number(2)])
        let onlyStart = try Wire.decode(SignallingSettingsRequest.self, #"{"beeps_per_day": 2, "start": "09:00"}"#)
        #expect(onlyStart.start == TimeOfDay("09:00") && onlyStart.end == nil)
    }

    @Test("Null hours, bad times and missing beeps are refused; a null sound means the default, as always")
    func refusals() throws {
        #expect(throws: DecodingError.self) { try Wire.decode(SignallingSettingsRequest.self, #"{"beeps_per_day": 2, "start": null}"#) }
        #expect(throws: DecodingError.self) { try Wire.decode(SignallingSettingsRequest.self, #"{"beeps_per_day": 2, "end": "8:00"}"#) }
        #expect(throws: DecodingError.self) { try Wire.decode(SignallingSettingsRequest.self, #"{"start": "08:00", "end": "22:00"}"#) }
        let request = try Wire.decode(SignallingSettingsRequest.self, #"{"beeps_per_day": 2, "sound": null}"#)
        #expect(request.sound == nil)
    }
}

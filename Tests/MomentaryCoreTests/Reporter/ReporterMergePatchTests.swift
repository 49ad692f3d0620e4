import Foundation
import Testing
@testable import MomentaryCore

@Suite("Reporter reports kept as JSON merge patches")
struct ReporterMergePatchTests {
    static func json(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test("the patch holds only what differs, in the target's own keys, and applying it gives the target back")
    func roundTrip() throws {
        let written = try Self.json(#"{"date": "2014-02-20T13:42:07-0500", "uniqueIdentifier": "2014", "battery": 0.55, "location": {"latitude": 1, "timestamp": "x"}}"#)
        let file = try Self.json(#"{"date": 414614527.812, "battery": 0.55, "sync": 0, "location": {"latitude": 1, "timestamp": 4.5, "placemark": {"name": "Home"}}, "tokens": [{"text": "a"}]}"#)
        let patch = try #require(JSONMergePatch.difference(from: written, to: file))
        #expect(patch == (try Self.json(#"{"date": 414614527.812, "uniqueIdentifier": null, "sync": 0, "location": {"timestamp": 4.5, "placemark": {"name": "Home"}}, "tokens": [{"text": "a"}]}"#)))
        #expect(JSONMergePatch.apply(patch, to: written) == file)
        #expect(JSONMergePatch.difference(from: file, to: file) == nil)
        #expect(JSONMergePatch.apply(try Self.json(#"{"a": {"b": 1}}"#), to: nil) == (try Self.json(#"{"a": {"b": 1}}"#)))
    }
}

import Foundation
@testable import MomentaryServer
import NIOCore
import Testing

/// The notification body as the app receives it: written by hand, it must still be JSON that
/// gives back exactly the texts that went in.
@Suite("APNs payload")
struct APNsPayloadTests {
    @Test("quotes, backslashes, control characters and non-ASCII text come back unchanged", arguments: [
        "How do you feel?",
        #"She said "now" \ then / left"#,
        "line one\nline two\ttabbed\r\u{1}\u{1F}",
        "Wie fühlst du dich? 😀 </script>",
    ])
    func roundTrip(alert: String) throws {
        let message = PushMessage(
            id: UUID(), participantID: UUID(), alert: alert, sound: "chime\"1\".caf", badge: 3, expiresAt: nil)
        let body = APNsPayload(message).encoded()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
        let aps = try #require(json["aps"] as? [String: Any])
        #expect(aps["alert"] as? String == alert)
        #expect(aps["sound"] as? String == "chime\"1\".caf")
        #expect(aps["badge"] as? Int == 3)
        #expect(json["beep_id"] as? String == message.id.uuidString.lowercased())
        #expect(json.count == 2 && aps.count == 3)
    }
}

import Foundation
import NIOCore

/// The JSON body of a beep's notification:
/// `{"aps":{"alert":"…","sound":"…","badge":1},"beep_id":"…"}`.
///
/// `beep_id` sits beside `aps` (custom keys must stay outside it) so the app can open the survey
/// for exactly this beep; a message from the researchers carries `message_id` there instead.
struct APNsPayload: Equatable {
    struct APS: Equatable {
        var alert: String
        var sound: String
        var badge: Int
    }

    /// APNs refuses larger bodies (413 PayloadTooLarge) for ordinary remote notifications.
    static let maximumSize = 4096

    var aps: APS
    /// The beep's id, or the message's (then `isMessage`).
    var beepID: String
    var isMessage = false

    init(_ message: PushMessage) {
        // Without a sound name iOS stays silent; "default" asks for the system's own sound.
        aps = APS(alert: message.alert, sound: message.sound ?? "default", badge: message.badge)
        beepID = message.id.uuidString.lowercased()
        isMessage = message.kind == .message
    }

    /// The JSON text, written straight into the buffer that goes on the wire: with four fixed
    /// keys only the strings need escaping, and JSONEncoder cost more per push than the rest
    /// of preparing it (figures: BENCHMARKS.md, `momentary-bench apns`).
    func encoded() -> ByteBuffer {
        var json = ByteBuffer()
        json.reserveCapacity(64 + aps.alert.utf8.count + aps.sound.utf8.count + beepID.utf8.count)
        json.writeStaticString(#"{"aps":{"alert":"#)
        Self.writeJSONString(aps.alert, to: &json)
        json.writeStaticString(#","sound":"#)
        Self.writeJSONString(aps.sound, to: &json)
        json.writeStaticString(#","badge":"#)
        json.writeString(String(aps.badge))
        json.writeStaticString(isMessage ? #"},"message_id":"# : #"},"beep_id":"#)
        Self.writeJSONString(beepID, to: &json)
        json.writeStaticString("}")
        return json
    }

    /// Writes `text` as a JSON string literal (RFC 8259): quotes, backslashes and control
    /// characters escaped, everything else as its UTF-8 bytes.
    static func writeJSONString(_ text: String, to json: inout ByteBuffer) {
        json.writeInteger(UInt8(ascii: "\""))
        defer { json.writeInteger(UInt8(ascii: "\"")) }
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            json.writeString(text)
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): json.writeStaticString(#"\""#)
            case UInt8(ascii: "\\"): json.writeStaticString(#"\\"#)
            case UInt8(ascii: "\n"): json.writeStaticString(#"\n"#)
            case UInt8(ascii: "\r"): json.writeStaticString(#"\r"#)
            case UInt8(ascii: "\t"): json.writeStaticString(#"\t"#)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                json.writeStaticString(#"\u00"#)
                json.writeInteger(hex[Int(byte >> 4)])
                json.writeInteger(hex[Int(byte & 0xF)])
            default: json.writeInteger(byte)
            }
        }
    }
}

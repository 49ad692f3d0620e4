import Foundation

/// The URL-safe base64 alphabet without padding (RFC 4648 §5), in which Web Push writes keys,
/// auth secrets and JWT parts, and browsers give subscriptions (`PushSubscription.toJSON()`).
public enum Base64URL {
    public static func encode(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url, with or without trailing `=` padding; nil for any other character or a
    /// length no encoder produces.
    public static func decode(_ text: String) -> Data? {
        let unpadded = text.hasSuffix("=") ? String(text.prefix(while: { $0 != "=" })) : text
        guard unpadded.count + 2 >= text.count,
              unpadded.utf8.allSatisfy(isAlphabet),
              unpadded.count % 4 != 1
        else { return nil }
        var standard = unpadded
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }

    /// Whether `text` is `byteCount` bytes written as base64url without padding (the pattern
    /// `openapi.yaml` states for a subscription's keys).
    public static func isUnpadded(_ text: String, byteCount: Int) -> Bool {
        text.utf8.count == (byteCount * 8 + 5) / 6 && text.utf8.allSatisfy(isAlphabet)
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}

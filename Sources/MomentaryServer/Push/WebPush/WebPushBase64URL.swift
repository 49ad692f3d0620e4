import Foundation

/// The URL-safe base64 alphabet without padding (RFC 4648 §5), which Web Push uses for keys,
/// auth secrets and JWT parts.
enum WebPushBase64URL {
    static func encode(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url, with or without trailing `=` padding; nil for any other character or a
    /// length no encoder produces.
    static func decode(_ text: String) -> Data? {
        let unpadded = text.hasSuffix("=") ? String(text.prefix(while: { $0 != "=" })) : text
        guard unpadded.count + 2 >= text.count,
              unpadded.unicodeScalars.allSatisfy({ isAlphabet($0) }),
              unpadded.count % 4 != 1
        else { return nil }
        var standard = unpadded
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }

    private static func isAlphabet(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", "_": true
        default: false
        }
    }
}

import Foundation

/// RFC 4648 base32 (A–Z, 2–7) without padding: how authenticator apps exchange TOTP secrets.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    /// Five bits per character, most significant first; the last character is zero-filled.
    public static func encode(_ bytes: [UInt8]) -> String {
        var text = ""
        var buffer = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                text.append(alphabet[(buffer >> bits) & 31])
            }
        }
        if bits > 0 { text.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return text
    }

    /// The bytes of `text`, ignoring case, spaces, dashes and trailing `=`; nil for any other
    /// character (people type secrets grouped, as they are shown).
    public static func decode(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = 0, bits = 0
        for character in text.uppercased() where !" -=".contains(character) {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = ((buffer << 5) | value) & 0xFFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((buffer >> bits) & 0xFF))
            }
        }
        return bytes
    }
}

import Crypto
import Foundation
import MomentaryCore

/// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) with HMAC-SHA-1, the only
/// algorithm every authenticator app supports. Here rather than in MomentaryCore, which stays
/// Foundation-only for the iOS app; Base32 lives there. (Vapor has a `TOTP` too: this one is ours
/// so that pyotp, written apart, checks it, and so the replay rule sits beside the window.)
struct TOTPGenerator: Sendable {
    let key: [UInt8]
    var digits = 6
    var period: TimeInterval = 30

    /// The 30-second step `date` falls in (T in RFC 6238, counted from 1970).
    func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / period).rounded(.down))
    }

    /// The code of one step: HMAC of the big-endian counter, dynamically truncated (RFC 4226 §5.3).
    func code(forStep step: Int64) -> String {
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Array($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: SymmetricKey(data: key)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let number = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(number % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    func code(at date: Date) -> String { code(forStep: step(at: date)) }

    /// The step whose code `code` is, looking one step either side of `date` (clocks drift, and
    /// typing takes time), but only at steps after `lastUsed`, so each code is accepted once.
    func matchingStep(_ code: String, at date: Date, after lastUsed: Int64?) -> Int64? {
        let typed = code.filter { !$0.isWhitespace }
        guard typed.count == digits, typed.allSatisfy(\.isASCII), typed.allSatisfy(\.isNumber) else { return nil }
        let now = step(at: date)
        for candidate in (now - 1)...(now + 1) where candidate > (lastUsed ?? .min) {
            // Every candidate is compared, in constant time, so timing tells nothing.
            if CSRFMiddleware.constantTimeEqual(Array(self.code(forStep: candidate).utf8), Array(typed.utf8)) { return candidate }
        }
        return nil
    }

    /// 20 random bytes (160 bits, the HMAC-SHA-1 key length RFC 4226 recommends), as base32.
    static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base32.encode((0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The `otpauth://` URI authenticator apps read from the QR code.
    static func provisioningURI(secret: String, email: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~@+")
        let account = email.addingPercentEncoding(withAllowedCharacters: allowed) ?? email
        return "otpauth://totp/Momentary:\(account)?secret=\(secret)&issuer=Momentary&algorithm=SHA1&digits=6&period=30"
    }
}

import MomentaryCore
import Testing

@Suite("Base32")
struct Base32Tests {
    /// RFC 4648 §10, with the padding left off as authenticator apps expect.
    @Test("the RFC 4648 test vectors encode and decode", arguments: [
        ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI"),
    ])
    func vectors(plain: String, encoded: String) {
        #expect(Base32.encode(Array(plain.utf8)) == encoded)
        #expect(Base32.decode(encoded) == Array(plain.utf8))
    }

    @Test("decoding forgives case, grouping and padding, and refuses other characters")
    func typedForms() {
        #expect(Base32.decode("mzxw 6ytb-oi==") == Array("foobar".utf8))
        #expect(Base32.decode("MZXW1") == nil, "1 is not in the alphabet")
        let secret = (0..<20).map { UInt8($0 * 13 & 0xFF) }
        #expect(Base32.decode(Base32.encode(secret)) == secret)
        #expect(Base32.encode(secret).count == 32)
    }
}

import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("TOTP (RFC 6238)")
struct TOTPTests {
    /// RFC 6238 appendix B's SHA-1 seed, "12345678901234567890".
    static let rfcKey = Array("12345678901234567890".utf8)

    /// Appendix B's SHA-1 rows: time, step (hex there) and 8-digit code; a 6-digit code is the
    /// same number modulo 10^6.
    @Test("the RFC 6238 appendix B SHA-1 vectors, in 8 digits and in 6", arguments: [
        (59.0, Int64(0x1), "94287082"), (1_111_111_109, 0x23523EC, "07081804"), (1_111_111_111, 0x23523ED, "14050471"),
        (1_234_567_890, 0x273EF07, "89005924"), (2_000_000_000, 0x3F940AA, "69279037"), (20_000_000_000, 0x27BC86AA, "65353130"),
    ])
    func rfcVectors(time: TimeInterval, step: Int64, code: String) {
        let date = Date(timeIntervalSince1970: time)
        #expect(TOTPGenerator(key: Self.rfcKey, digits: 8).step(at: date) == step)
        #expect(TOTPGenerator(key: Self.rfcKey, digits: 8).code(at: date) == code)
        #expect(TOTPGenerator(key: Self.rfcKey).code(at: date) == String(code.suffix(6)))
    }

    @Test("a code is accepted one step either side, never at or before the last used step")
    func window() {
        let totp = TOTPGenerator(key: Self.rfcKey)
        let now = Date(timeIntervalSince1970: 1_234_567_890)
        let step = totp.step(at: now)
        for offset: Int64 in [-1, 0, 1] {
            #expect(totp.matchingStep(totp.code(forStep: step + offset), at: now, after: nil) == step + offset)
        }
        for offset: Int64 in [-2, 2] {
            #expect(totp.matchingStep(totp.code(forStep: step + offset), at: now, after: nil) == nil)
        }
        #expect(totp.matchingStep(totp.code(forStep: step), at: now, after: step) == nil, "replay")
        #expect(totp.matchingStep(totp.code(forStep: step - 1), at: now, after: step) == nil, "older than the last used")
        #expect(totp.matchingStep(totp.code(forStep: step + 1), at: now, after: step) == step + 1)
        #expect(totp.matchingStep("12345", at: now, after: nil) == nil)
        #expect(totp.matchingStep("abcdef", at: now, after: nil) == nil)
    }

    @Test("the otpauth URI names the issuer, account and parameters authenticator apps read")
    func provisioningURI() {
        #expect(TOTPGenerator.provisioningURI(secret: "JBSWY3DPEHPK3PXP", email: "ana+lab@example.org")
            == "otpauth://totp/Momentary:ana+lab@example.org?secret=JBSWY3DPEHPK3PXP&issuer=Momentary&algorithm=SHA1&digits=6&period=30")
        let secret = TOTPGenerator.newSecret()
        #expect(secret.count == 32 && Base32.decode(secret)?.count == 20)
        #expect(TOTPGenerator.newSecret() != secret)
    }

    /// pyotp is an independent TOTP implementation; CI installs it (and sets CI=true and
    /// MOMENTARY_TEST_REQUIRE_PYOTP=1), so there a missing pyotp fails instead of skipping.
    @Test("codes agree with pyotp's")
    func agreesWithPyotp() async throws {
        let pythonHasPyotp = (try? await Self.python(["-c", "import pyotp"]))?.status == 0
        let environment = ProcessInfo.processInfo.environment
        if environment["MOMENTARY_TEST_REQUIRE_PYOTP"] == "1" || environment["CI"] == "true" {
            #expect(pythonHasPyotp, "python3 cannot import pyotp, which this run requires")
        }
        guard pythonHasPyotp else { return }
        let secret = TOTPGenerator.newSecret()
        let totp = TOTPGenerator(key: try #require(Base32.decode(secret)))
        for time in [0, 59, 1_111_111_109, 1_700_000_000, Int(Date().timeIntervalSince1970), 20_000_000_000] {
            let (status, output) = try await Self.python([
                "-c", "import pyotp,sys; print(pyotp.TOTP(sys.argv[1]).at(int(sys.argv[2])))", secret, String(time)])
            #expect(status == 0, "pyotp failed: \(output)")
            #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == totp.code(at: Date(timeIntervalSince1970: TimeInterval(time))),
                    "time \(time)")
        }
    }

    private static func python(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await runToEndOffThread("/usr/bin/env", ["python3"] + arguments)
    }
}

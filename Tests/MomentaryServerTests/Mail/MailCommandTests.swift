import Foundation
@testable import MomentaryServer
import Testing

/// `momentary mail test`, run as the operator runs it: the binary, with the mail settings in its
/// environment, sending to aiosmtpd.
@Suite("Checking the mail settings from the command line")
struct MailCommandTests {
    @Test("mail test sends one message now and says the server took it; without settings it says what to set")
    func mailTest() async throws {
        let server = try await LocalSMTPServer(auth: "lab:secret")
        defer { server.stop() }
        let data = try TestScratch.folder("mail-command").path
        let sent = try ServerProcess(
            arguments: ["mail", "test", "--to", "operator@lab.example.org", "--data", data],
            environment: ["MOMENTARY_SMTP_URL": "smtp://lab:secret@127.0.0.1:\(server.port)?starttls=never",
                          "MOMENTARY_MAIL_FROM": "Momentary <momentary@lab.example.org>"])
        #expect(await sent.waitForExit() == 0, "\(sent.output)")
        #expect(sent.output.contains("The mail server took the test message for operator@lab.example.org"))
        let received = try await server.waitForMessages(1)
        #expect(received.map(\.rcpt_tos) == [["operator@lab.example.org"]])
        #expect(received.map(\.subject) == ["Momentary: a test message"])

        let wrongPassword = try ServerProcess(
            arguments: ["mail", "test", "--to", "operator@lab.example.org", "--data", data],
            environment: ["MOMENTARY_SMTP_URL": "smtp://lab:wrong@127.0.0.1:\(server.port)?starttls=never",
                          "MOMENTARY_MAIL_FROM": "momentary@lab.example.org"])
        #expect(await wrongPassword.waitForExit() == 1)

        let unset = try ServerProcess(
            arguments: ["mail", "test", "--to", "operator@lab.example.org", "--data", data],
            environment: ["MOMENTARY_SMTP_URL": nil, "MOMENTARY_MAIL_FROM": nil])
        #expect(await unset.waitForExit() == 1)
        #expect(try server.received().count == 1)
    }
}

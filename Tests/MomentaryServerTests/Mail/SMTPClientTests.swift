import Foundation
@testable import MomentaryServer
import Testing

/// The SMTP client against aiosmtpd, a real server written by others: in plain text, with
/// STARTTLS and with TLS from the start, with a password, and refusing. What arrived is read by
/// Python's email package, as a mail program would read it.
@Suite("Sending email over SMTP to a real server")
struct SMTPClientTests {
    private func message(to address: String = "researcher@lab.example.org", subject: String = "Ihr Passwort zurücksetzen",
                         body: String = "Grüße aus dem Labor.\n.A line that starts with a dot\n\nEnde.") -> MailMessage {
        MailMessage(
            from: MailAddress(parsing: "Momentary Lab <momentary@lab.example.org>")!, to: MailAddress(parsing: address)!,
            subject: subject, body: body, messageID: "<\(UUID().uuidString.lowercased())@lab.example.org>", date: Date())
    }

    @Test("in plain text with a password (starttls=never), the message arrives as written")
    func plainWithPassword() async throws {
        let server = try await LocalSMTPServer(auth: "lab:s3cret pass")
        defer { server.stop() }
        let sent = message()
        try await SMTPClient(settings: .local(server, security: .none, user: "lab", password: "s3cret pass")).send(sent)
        let received = try await server.waitForMessages(1)
        try #require(received.count == 1)
        #expect(received[0].mail_from == "momentary@lab.example.org")
        #expect(received[0].rcpt_tos == ["researcher@lab.example.org"])
        #expect(received[0].user == "lab")
        #expect(received[0].tls == false)
        #expect(received[0].subject == "Ihr Passwort zurücksetzen")
        #expect(received[0].from == "Momentary Lab <momentary@lab.example.org>")
        #expect(received[0].message_id == sent.messageID)
        // Lines end in CRLF on the wire; the text, a leading dot and the umlauts arrive unchanged.
        #expect(received[0].body.replacingOccurrences(of: "\r\n", with: "\n") == sent.body)
    }

    @Test("with STARTTLS, the server's certificate checked against the CA file, and a password")
    func startTLS() async throws {
        let server = try await LocalSMTPServer(tls: .starttls, auth: "lab:secret")
        defer { server.stop() }
        try await SMTPClient(settings: .local(server, security: .startTLS, user: "lab", password: "secret")).send(message())
        let received = try await server.waitForMessages(1)
        #expect(received.map(\.tls) == [true])
        #expect(received.map(\.user) == ["lab"])
    }

    @Test("with TLS from the first byte (smtps://)")
    func implicitTLS() async throws {
        let server = try await LocalSMTPServer(tls: .implicit)
        defer { server.stop() }
        try await SMTPClient(settings: .local(server, security: .implicitTLS)).send(message(subject: "Plain subject"))
        let received = try await server.waitForMessages(1)
        #expect(received.map(\.tls) == [true])
        #expect(received.map(\.subject) == ["Plain subject"])
    }

    @Test("a server whose certificate is not signed by a trusted CA is refused before anything is sent")
    func untrustedCertificate() async throws {
        let server = try await LocalSMTPServer(tls: .implicit)
        defer { server.stop() }
        var settings = MailSettings.local(server, security: .implicitTLS)
        settings.certificateAuthorityFile = nil
        await #expect(throws: (any Error).self) { try await SMTPClient(settings: settings).send(message()) }
        #expect(try server.received().isEmpty)
    }

    @Test("STARTTLS required but not offered: refused, nothing sent in plain text")
    func startTLSNotOffered() async throws {
        let server = try await LocalSMTPServer()
        defer { server.stop() }
        await #expect(throws: SMTPError.startTLSNotOffered) {
            try await SMTPClient(settings: .local(server, security: .startTLS)).send(message())
        }
        #expect(try server.received().isEmpty)
    }

    @Test("a wrong password is a permanent refusal; a 451 to the message is a passing one")
    func refusals() async throws {
        let guarded = try await LocalSMTPServer(tls: .starttls, auth: "lab:secret")
        defer { guarded.stop() }
        do {
            try await SMTPClient(settings: .local(guarded, security: .startTLS, user: "lab", password: "wrong")).send(message())
            Issue.record("a wrong password was accepted")
        } catch let error as SMTPError {
            #expect(!error.isTransient, "\(error)")
        }
        let busy = try await LocalSMTPServer(refuse: 1)
        defer { busy.stop() }
        do {
            try await SMTPClient(settings: .local(busy, security: .none)).send(message())
            Issue.record("a 451 was taken as success")
        } catch let error as SMTPError {
            #expect(error.isTransient, "\(error)")
        }
        try await SMTPClient(settings: .local(busy, security: .none)).send(message())
        #expect(try await busy.waitForMessages(1).count == 1)
    }

    @Test("a server that never answers the message's end times out")
    func timeout() async throws {
        let server = try await LocalSMTPServer(hangAfterData: true)
        defer { server.stop() }
        var settings = MailSettings.local(server, security: .none)
        settings.timeoutSeconds = 1
        await #expect(throws: SMTPError.timedOut) { try await SMTPClient(settings: settings).send(message()) }
    }
}

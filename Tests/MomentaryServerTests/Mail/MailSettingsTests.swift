import Foundation
@testable import MomentaryServer
import Testing

@Suite("Mail settings from the environment")
struct MailSettingsTests {
    private func load(_ environment: [String: String]) throws(ConfigurationError) -> MailSettings? {
        try MailSettings.load(from: environment)
    }

    @Test("smtp:// means STARTTLS on 587, smtps:// TLS on 465; the password is percent-decoded")
    func readsURLs() throws {
        let from = ["MOMENTARY_MAIL_FROM": "Momentary Lab <momentary@lab.example.org>"]
        let plain = try #require(try load(from.merging(["MOMENTARY_SMTP_URL": "smtp://lab%40uni:p%3Ass@mail.example.org"]) { $1 }))
        #expect(plain.host == "mail.example.org")
        #expect(plain.port == 587)
        #expect(plain.security == .startTLS)
        #expect(plain.user == "lab@uni")
        #expect(plain.password == "p:ss")
        #expect(plain.from.name == "Momentary Lab")
        #expect(plain.from.address == "momentary@lab.example.org")
        let implicit = try #require(try load(from.merging(["MOMENTARY_SMTP_URL": "smtps://mail.example.org"]) { $1 }))
        #expect(implicit.port == 465)
        #expect(implicit.security == .implicitTLS)
        let relay = try #require(try load(from.merging(["MOMENTARY_SMTP_URL": "smtp://localhost:25?starttls=never"]) { $1 }))
        #expect(relay.security == MailSettings.Security.none)
        #expect(relay.user == nil)
        #expect(try load([:]) == nil)
    }

    @Test("a wrong value is refused by name, and the error never shows the password", arguments: [
        (["MOMENTARY_SMTP_URL": "smtp://mail.example.org"], "MOMENTARY_MAIL_FROM"),
        (["MOMENTARY_MAIL_FROM": "a@b.org"], "MOMENTARY_SMTP_URL"),
        (["MOMENTARY_SMTP_URL": "http://mail.example.org", "MOMENTARY_MAIL_FROM": "a@b.org"], "smtp:// or smtps://"),
        (["MOMENTARY_SMTP_URL": "smtp://mail.example.org?starttls=maybe", "MOMENTARY_MAIL_FROM": "a@b.org"], "starttls=required or starttls=never"),
        (["MOMENTARY_SMTP_URL": "smtps://mail.example.org?starttls=never", "MOMENTARY_MAIL_FROM": "a@b.org"], "TLS from the start"),
        (["MOMENTARY_SMTP_URL": "smtp://mail.example.org?tls=on", "MOMENTARY_MAIL_FROM": "a@b.org"], "no query settings"),
        (["MOMENTARY_SMTP_URL": "smtp://user:hunter22@mail.example.org:99999", "MOMENTARY_MAIL_FROM": "a@b.org"], "port"),
        (["MOMENTARY_SMTP_URL": "smtp://mail.example.org", "MOMENTARY_MAIL_FROM": "not an address"], "an email address"),
        (["MOMENTARY_SMTP_URL": "smtp://mail.example.org", "MOMENTARY_MAIL_FROM": "a@b.org", "MOMENTARY_SMTP_CA_FILE": "/no/such.pem"], "MOMENTARY_SMTP_CA_FILE"),
    ])
    func refusesWrongValues(environment: [String: String], mentioning expected: String) {
        do {
            _ = try load(environment)
            Issue.record("accepted \(environment)")
        } catch {
            #expect(error.description.contains(expected), "\(error)")
            #expect(!error.description.contains("hunter22"), "\(error)")
        }
    }

    @Test("addresses: one @, a domain, nothing that could end a header or a command")
    func addresses() {
        #expect(MailAddress(parsing: "someone@lab.example.org") != nil)
        #expect(MailAddress(parsing: "\"Dr. Weiß\" <weiss@uni.example.de>")?.name == "Dr. Weiß")
        for wrong in ["", "no-at", "a@b", "a@@b.org", "a b@c.org", "a@b.org>\r\nRCPT TO:<x@y.org", "<a@b.org", "a@.org"] {
            #expect(MailAddress(parsing: wrong) == nil, "\(wrong)")
        }
    }

    @Test("a subject in German is RFC 2047 words; a line starting with a dot is doubled")
    func encoding() {
        #expect(MailMessage.encodedWord("Plain") == "Plain")
        #expect(MailMessage.encodedWord("Grüße").hasPrefix("=?utf-8?B?"))
        #expect(SMTPClient.dotStuffed("a\r\n.b\r\n") == "a\r\n..b\r\n")
        #expect(SMTPClient.dotStuffed(".x") == "..x\r\n")
    }
}

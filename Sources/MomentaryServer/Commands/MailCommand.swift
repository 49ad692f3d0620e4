import ArgumentParser
import Foundation

/// `momentary mail test --to ADDRESS`: sends one message now with the configured mail settings and
/// says what the mail server answered, so an operator can check `MOMENTARY_SMTP_URL` before a
/// researcher needs a password reset.
struct MailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mail", abstract: "Check the outbound email settings.", subcommands: [Test.self])

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a test message now (not through the outbox) and report the mail server's answer.")
        @ArgumentParser.Option(help: "Who receives the test message.") var to: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let configuration = try data.loadConfiguration()
            guard let settings = configuration.mail else {
                throw CommandFailure("No mail is sent: set MOMENTARY_SMTP_URL and MOMENTARY_MAIL_FROM (see the README's configuration table).")
            }
            guard let recipient = MailAddress(parsing: to) else {
                throw CommandFailure.usage("--to must be an email address, not “\(to)”.")
            }
            let id = UUID().uuidString.lowercased()
            let message = MailMessage(
                from: settings.from, to: recipient, subject: "Momentary: a test message",
                body: "This message was sent by `momentary mail test` to check the server's mail settings. Nothing needs doing.",
                messageID: "<\(id)@\(settings.from.domain)>", date: Date())
            let security = switch settings.security {
            case .implicitTLS: "TLS"
            case .startTLS: "STARTTLS"
            case .none: "no encryption"
            }
            CommandOutput.error("Sending to \(recipient.address) through \(settings.host):\(settings.port) (\(security))…")
            do {
                try await SMTPClient(settings: settings).send(message)
            } catch {
                throw CommandFailure("The test message was not sent: \(error)")
            }
            CommandOutput.line("The mail server took the test message for \(recipient.address) (Message-ID \(message.messageID)).")
        }
    }
}

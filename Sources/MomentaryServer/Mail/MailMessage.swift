import Foundation

/// An email address with an optional display name: `momentary@lab.example.org` or
/// `Momentary <momentary@lab.example.org>`. Checked only as far as sending needs: one `@`, a
/// domain with a dot or `localhost`, and nothing that could end a header or an SMTP command.
public struct MailAddress: Sendable, Equatable {
    public let name: String?
    public let address: String

    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            let name = trimmed[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            self.init(name: name.isEmpty ? nil : name, address: String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]))
        } else {
            self.init(name: nil, address: trimmed)
        }
    }

    public init?(name: String?, address: String) {
        guard Self.isAddress(address), !(name ?? "").contains(where: { $0.isNewline || $0 == "\"" || $0 == "<" || $0 == ">" }) else { return nil }
        self.name = name
        self.address = address
    }

    public var domain: String { String(address[address.index(after: address.lastIndex(of: "@")!)...]) }

    static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, text.count <= 254,
              let domain = parts.last, domain == "localhost" || (domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".")) else { return false }
        return text.unicodeScalars.allSatisfy { $0.value > 32 && $0.value < 127 && !"<>()[]\\,;:\"".unicodeScalars.contains($0) }
    }

    /// As a header shows it, the name encoded when it is not plain ASCII.
    var header: String {
        guard let name else { return address }
        return "\(MailMessage.encodedWord(name)) <\(address)>"
    }
}

/// One plain-text email to one recipient, as RFC 5322 text with CRLF line ends: UTF-8 body in
/// base64 (so no line starts with a dot and any language arrives intact) and a subject encoded
/// as RFC 2047 words when it is not ASCII.
struct MailMessage: Sendable, Equatable {
    var from: MailAddress
    var to: MailAddress
    var subject: String
    var body: String
    /// `<id@domain>`: lets a mail system recognise the same message sent twice.
    var messageID: String
    var date: Date

    func rendered() -> String {
        let base64 = Data(body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n").utf8)
            .base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        let headers = [
            "From: \(from.header)",
            "To: \(to.header)",
            "Subject: \(Self.encodedWord(subject))",
            "Date: \(Self.dateHeader(date))",
            "Message-ID: \(messageID)",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: base64",
        ]
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + base64 + "\r\n"
    }

    /// The text unchanged when it is printable ASCII; otherwise RFC 2047 base64 words, each short
    /// enough for a header line and split only between characters.
    static func encodedWord(_ text: String) -> String {
        let single = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if single.unicodeScalars.allSatisfy({ $0.value >= 32 && $0.value < 127 }) { return single }
        var words: [String] = [], chunk = ""
        for character in single {
            if (chunk + String(character)).utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?utf-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }

    static func dateHeader(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}

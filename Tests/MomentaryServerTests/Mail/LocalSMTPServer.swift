import Foundation
@testable import MomentaryServer
import MomentaryTestServers
import Synchronization
import Testing

/// aiosmtpd (`scripts/smtp_sink.py`) as a child process: a real SMTP server, with or without TLS
/// and a password, that writes every message it takes into a folder the test reads.
final class LocalSMTPServer: @unchecked Sendable {
    enum TLS: String { case implicit, starttls }

    struct Received: Decodable {
        let mail_from: String
        let rcpt_tos: [String]
        let user: String?
        let tls: Bool
        let subject: String?
        let from: String?
        let to: String?
        let message_id: String?
        let body: String
        let data: String
    }

    let port: Int
    private let folder: URL
    private let process: ChildProcess
    private let input = Pipe()
    /// The CA that signed the server's certificate, as a PEM file: `MOMENTARY_SMTP_CA_FILE`.
    let certificateAuthorityFile: String

    init(tls: TLS? = nil, auth: String? = nil, refuse: Int = 0, refuseCode: Int = 451, hangAfterData: Bool = false) async throws {
        folder = try TestScratch.folder("smtp")
        let certificates = try LocalAPNsCertificates.generate()
        let files = (ca: folder.appendingPathComponent("ca.pem"), cert: folder.appendingPathComponent("cert.pem"), key: folder.appendingPathComponent("key.pem"))
        try certificates.certificateAuthorityPEM.write(to: files.ca, atomically: true, encoding: .utf8)
        try certificates.serverCertificatePEM.write(to: files.cert, atomically: true, encoding: .utf8)
        try certificates.serverPrivateKeyPEM.write(to: files.key, atomically: true, encoding: .utf8)
        certificateAuthorityFile = files.ca.path
        let mail = folder.appendingPathComponent("mail")
        try FileManager.default.createDirectory(at: mail, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/smtp_sink.py")
        var arguments = [script.path, "--dir", mail.path, "--refuse", String(refuse), "--refuse-code", String(refuseCode)]
        if let tls { arguments += ["--tls", tls.rawValue, "--cert", files.cert.path, "--key", files.key.path] }
        if let auth { arguments += ["--auth", auth] }
        if hangAfterData { arguments.append("--hang-after-data") }
        let output = Pipe()
        process = try ChildProcess(
            "/usr/bin/env", ["python3"] + arguments, standardInput: input.fileHandleForReading.fileDescriptor,
            standardOutput: output.fileHandleForWriting.fileDescriptor)
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        let line = try await onThreadOfItsOwn { () -> String in
            var bytes = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { bytes += byte }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard line.hasPrefix("READY "), let port = Int(line.dropFirst(6)) else {
            process.signal(SIGTERM)
            throw SMTPSinkError(description: "scripts/smtp_sink.py did not start (is aiosmtpd installed?): “\(line)”")
        }
        self.port = port
    }

    /// The messages taken so far, oldest first.
    func received() throws -> [Received] {
        let mail = folder.appendingPathComponent("mail")
        let names = try FileManager.default.contentsOfDirectory(atPath: mail.path).filter { !$0.hasPrefix(".") }.sorted()
        return try names.map { try JSONDecoder().decode(Received.self, from: Data(contentsOf: mail.appendingPathComponent($0))) }
    }

    /// Waits up to `seconds` for at least `count` messages.
    func waitForMessages(_ count: Int, seconds: Double = 10) async throws -> [Received] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let messages = try received()
            if messages.count >= count { return messages }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try received()
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.signal(SIGTERM)
        process.waitForExit()
    }

    deinit { stop() }
}

struct SMTPSinkError: Error, CustomStringConvertible {
    let description: String
}

extension MailSettings {
    /// Settings for a local test server.
    static func local(_ server: LocalSMTPServer, security: Security, user: String? = nil, password: String? = nil) -> MailSettings {
        var settings = try! MailSettings.parse(
            "\(security == .implicitTLS ? "smtps" : "smtp")://localhost:\(server.port)\(security == .none ? "?starttls=never" : "")",
            from: MailAddress(parsing: "Momentary Lab <momentary@lab.example.org>")!)
        settings.user = user
        settings.password = password
        settings.certificateAuthorityFile = server.certificateAuthorityFile
        return settings
    }
}

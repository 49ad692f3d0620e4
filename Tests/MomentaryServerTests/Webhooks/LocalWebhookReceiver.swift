import Foundation
@testable import MomentaryServer

/// `scripts/webhook_receiver.py`: a local HTTP receiver checking signatures with Python's hmac.
final class LocalWebhookReceiver: @unchecked Sendable {
    struct Received: Decodable {
        let number: Int
        let status: Int
        let verified: Bool
        let event: String?
        let delivery: String?
        let body: String
    }

    let port: Int
    private let folder: URL
    private let process: ChildProcess
    private let input = Pipe()

    var url: String { "http://127.0.0.1:\(port)/momentary-events" }

    init(secret: String, fail: Int = 0) async throws {
        folder = try TestScratch.folder("webhooks")
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/webhook_receiver.py")
        let output = Pipe()
        process = try ChildProcess(
            "/usr/bin/env", ["python3", script.path, "--dir", folder.path, "--secret", secret, "--fail", String(fail)],
            standardInput: input.fileHandleForReading.fileDescriptor, standardOutput: output.fileHandleForWriting.fileDescriptor)
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        let line = try await onThreadOfItsOwn { () -> String in
            var bytes = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { bytes += byte }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard line.hasPrefix("READY "), let port = Int(line.dropFirst(6)) else {
            process.signal(SIGTERM)
            throw SMTPSinkError(description: "scripts/webhook_receiver.py did not start: “\(line)”")
        }
        self.port = port
    }

    /// Every request so far, in the order they came.
    func received() throws -> [Received] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { try JSONDecoder().decode(Received.self, from: Data(contentsOf: folder.appendingPathComponent($0))) }
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.signal(SIGTERM)
        process.waitForExit()
    }

    deinit { stop() }
}

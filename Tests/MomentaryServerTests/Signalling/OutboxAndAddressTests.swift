import Foundation
@testable import MomentaryServer
import Testing

@Suite("Signalling: outbox channel and push addresses")
struct OutboxAndAddressTests {
    @Test("concurrent sends each append one whole JSON line")
    func concurrentOutboxLines() async throws {
        let path = TestScratch.file("momentary-outbox").appendingPathComponent("push-outbox.jsonl").path
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let outbox = OutboxChannel(path: path)
        let messages = (0..<200).map { index in
            PushMessage(id: UUID(), participantID: UUID(), alert: "How do you feel? \(index)", sound: index.isMultiple(of: 2) ? nil : "bell", expiresAt: nil)
        }
        await withTaskGroup(of: PushOutcome.self) { group in
            for message in messages { group.addTask { await outbox.send(message, to: .none) } }
            for await outcome in group { #expect(outcome == .accepted(statusCode: nil, serviceID: nil)) }
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let decoded = try lines.map { try JSONDecoder().decode(OutboxLine.self, from: Data($0.utf8)) }
        #expect(Set(decoded.map(\.beepID)) == Set(messages.map(\.id)))
        #expect(lines.filter { $0.contains(#""sound":null"#) }.count == 100)
    }

    @Test("an unwritable outbox is a refusal with the reason, not a crash")
    func unwritableOutbox() async throws {
        let file = TestScratch.file("momentary-file")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data())
        defer { try? FileManager.default.removeItem(at: file) }
        let outbox = OutboxChannel(path: file.path + "/below/outbox.jsonl")
        let outcome = await outbox.send(PushMessage(id: UUID(), participantID: UUID(), alert: "x", sound: nil, expiresAt: nil), to: .none)
        guard case .rejected(_, let reason, let retryable) = outcome else {
            Issue.record("expected a refusal, got \(outcome)")
            return
        }
        #expect(!retryable)
        #expect(reason.contains("outbox"))
    }

    @Test("participants' push columns become targets; broken ones are named")
    func pushAddresses() throws {
        let token = String(repeating: "ab", count: 32)
        #expect(try PushAddress.parse(channel: "apns", token: token, keys: #"{"environment":"sandbox"}"#).target
            == .apns(deviceToken: token, sandbox: true))
        #expect(try PushAddress.parse(channel: "apns", token: token.uppercased(), keys: nil).target
            == .apns(deviceToken: token, sandbox: false))
        let web = try PushAddress.parse(
            channel: "webpush", token: "https://push.example.org/send/abc", keys: #"{"p256dh":"BPk","auth":"xyz"}"#)
        #expect(web.target == .webPush(endpoint: URL(string: "https://push.example.org/send/abc")!, p256dh: "BPk", auth: "xyz"))
        #expect(try PushAddress.parse(channel: "outbox", token: nil, keys: nil) == PushAddress(channel: "outbox", target: .none))

        let broken: [(String, String?, String?, String)] = [
            ("apns", nil, nil, "device token is missing"),
            ("apns", "xyz", nil, "not hexadecimal"),
            ("apns", token, #"{"environment":"staging"}"#, "staging"),
            ("webpush", "http://push.example.org/x", #"{"p256dh":"a","auth":"b"}"#, "https URL"),
            ("webpush", "https://push.example.org/x", nil, "keys are missing"),
            ("webpush", "https://push.example.org/x", #"{"p256dh":"a"}"#, "lack “auth”"),
        ]
        for (channel, token, keys, expected) in broken {
            #expect(throws: PushAddressError.self) { try PushAddress.parse(channel: channel, token: token, keys: keys) }
            do {
                _ = try PushAddress.parse(channel: channel, token: token, keys: keys)
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
            }
        }
    }
}

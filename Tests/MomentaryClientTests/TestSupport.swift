import Foundation
import MomentaryClient
import MomentaryCore
import Synchronization

/// A clock that moves only when a test says so.
@available(macOS 15.0, iOS 18.0, *)
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_774_771_200)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    func set(_ date: Date) {
        current.withLock { $0 = date }
    }

    /// As the queue's clock: sleeping moves time forward instead of waiting.
    var uploadClock: UploadClock {
        UploadClock(now: { self.now }, sleep: { self.advance(by: $0) })
    }
}

/// A fresh directory under the system's temporary folder, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("momentary-client-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Test fixtures for queue items.
enum Fixture {
    static let start = Date(timeIntervalSince1970: 1_774_771_200)

    static func response(key: String, beep: UUID? = nil) -> ResponseSubmission {
        ResponseSubmission(idempotencyKey: key, beepID: beep, surveyVersion: 1,
                           startedAt: start, submittedAt: start.addingTimeInterval(30),
                           answers: [SubmittedAnswer(questionID: "happy", answer: .number(70))])
    }

    static func photo(for key: String, byte: UInt8 = 0xFF) -> PhotoUpload {
        PhotoUpload(responseKey: key, jpeg: Data([0xFF, 0xD8, byte, 0xD9]), isPublic: false)
    }

    static let push = PushRegistration.apns(token: "00aa11bb", environment: .sandbox)

    static func streamBatch(key: String) -> StreamBatchUpload {
        StreamBatchUpload(stream: .reachability, idempotencyKey: key, csv: Data("timestamp,event\n1774771200000,wifi\n".utf8))
    }
}

/// An in-process stand-in for the server's upload endpoints with the real server's semantics:
/// one response per idempotency key (a repeat gets the first receipt back), photos need a known
/// response, ignored reports and settings are idempotent. `effects` lists what changed, in order.
actor FakeUploadServer {
    private(set) var effects: [String] = []
    private(set) var requestCount = 0
    private var responsesByKey: [String: ResponseReceipt] = [:]

    func receive(_ upload: OutgoingUpload) throws -> UploadAcknowledgement {
        requestCount += 1
        switch upload {
        case .pushToken(let push):
            effects.append("push:\(push.channel.rawValue)")
            return .accepted
        case .settings(let settings):
            effects.append("settings:\(settings.beepsPerDay)")
            return .accepted
        case .response(let response):
            if let receipt = responsesByKey[response.idempotencyKey] {
                return .response(receipt)
            }
            let receipt = ResponseReceipt(responseID: UUID(), volunteered: response.beepID == nil)
            responsesByKey[response.idempotencyKey] = receipt
            effects.append("response:\(response.idempotencyKey)")
            return .response(receipt)
        case .photo(let responseID, let jpeg, _):
            guard let key = responsesByKey.first(where: { $0.value.responseID == responseID })?.key else {
                throw MomentaryClientError.notFound(code: "not_found", message: "No such response.")
            }
            effects.append("photo:\(key):\(jpeg[2])")
            return .photo(PhotoReceipt(photoID: UUID()))
        case .ignoredBeep(let beepID):
            if !effects.contains("ignored:\(beepID)") { effects.append("ignored:\(beepID)") }
            return .accepted
        case .streamBatch(let batch):
            let summary = try StreamBatchValidator.validate(batch.csv, as: batch.stream)
            let effect = "stream:\(batch.stream.rawValue):\(batch.idempotencyKey)"
            if !effects.contains(effect) { effects.append(effect) }
            return .streamBatch(StreamBatchReceipt(batchID: UUID(), stream: batch.stream, rowCount: summary.rowCount,
                                                   firstTimestamp: summary.first, lastTimestamp: summary.last))
        case .withdraw:
            effects.append("withdraw")
            return .accepted
        }
    }
}

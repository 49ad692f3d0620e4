import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Synchronization
import Testing

/// The app's upload queue against the real server: a client killed in the middle of an upload
/// delivers everything exactly once, in priority order, after it restarts.
@Suite("Upload queue against the server")
struct QueueEndToEndTests {
    @Test("a client killed mid-upload delivers every answer exactly once, in priority order, after restart")
    func crashMidUploadThenRestart() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            // An earlier beep, no longer awaiting an answer, so the queued answers are volunteered.
            let ignoredBeep = try await APIFixture.deliveredBeep(
                for: registration.participantID, minutesAgo: 30, status: .expired, on: server.db)
            let directory = TestScratch.file("queue")
            defer { try? FileManager.default.removeItem(at: directory) }

            // First run: the second upload reaches the server, then the app is killed before it
            // hears the answer (the sender never returns and the task is cancelled).
            let firstRunAcknowledged = Mutex(0)
            let crashingSender: UploadSender = { upload in
                let acknowledgement = try await client.send(upload)
                let count = firstRunAcknowledged.withLock { value -> Int in value += 1; return value }
                if count == 2 {
                    try await Task.sleep(for: .seconds(3600))
                }
                return acknowledgement
            }
            let jpeg = TestJPEG.make([1, 2, 3])
            let responses = (1...3).map { APIFixture.submission(key: "answer-\($0)", seed: UInt64($0)) }
            do {
                let queue = try UploadQueue(directory: directory, sender: crashingSender)
                _ = try await queue.enqueue(.streamBatch(StreamBatchUpload(
                    stream: .reachability, idempotencyKey: "stream-1", csv: Data("timestamp,event\n1774771200000,wifi\n".utf8))))
                _ = try await queue.enqueue(.ignoredBeep(beepID: try ignoredBeep.requireID()))
                for response in responses { _ = try await queue.enqueue(.response(response)) }
                _ = try await queue.enqueue(.photo(PhotoUpload(responseKey: "answer-1", jpeg: jpeg, isPublic: false)))
                _ = try await queue.enqueue(.pushToken(.apns(token: "00ff00ff", environment: .sandbox)))
                let drain = Task { await queue.drain() }
                // The server has stored the second upload; the app dies before recording that.
                while firstRunAcknowledged.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(20)) }
                drain.cancel()
                _ = await drain.value
            }
            #expect(try await SurveyResponse.query(on: server.db).filter(\.$kind == .esm).count() == 1,
                    "the interrupted upload reached the server once")

            // Restart: a new queue on the same directory, with a sender that records the order.
            let order = Mutex<[String]>([])
            let recordingSender: UploadSender = { upload in
                let name = switch upload {
                case .pushToken: "push_token"
                case .settings: "settings"
                case .response(let submission): submission.idempotencyKey
                case .photo: "photo"
                case .ignoredBeep: "ignored"
                case .streamBatch(let batch): batch.idempotencyKey
                case .withdraw: "withdraw"
                }
                order.withLock { $0.append(name) }
                return try await client.send(upload)
            }
            let restarted = try UploadQueue(directory: directory, sender: recordingSender)
            let report = await restarted.drain()
            #expect(report.remaining == 0)
            #expect(report.deadLettered.isEmpty)
            // The first run already delivered the push token (highest priority); the interrupted
            // answer-1 is sent again and recognised by its key.
            #expect(order.withLock { $0 } == ["answer-1", "answer-2", "answer-3", "photo", "ignored", "stream-1"])

            let stored = try await SurveyResponse.query(on: server.db).filter(\.$kind == .esm).all()
            #expect(Set(stored.map(\.idempotencyKey)) == ["answer-1", "answer-2", "answer-3"])
            #expect(stored.count == 3, "each answer exactly once")
            #expect(try await Blob.query(on: server.db).count() == 2, "the photo and the stream batch")
            #expect(try await StreamBatch.query(on: server.db).count() == 1)
            let beep = try #require(try await Beep.find(ignoredBeep.id, on: server.db))
            #expect(beep.status == .ignored)
            let participant = try #require(try await Participant.find(registration.participantID, on: server.db))
            #expect(participant.pushToken == "00ff00ff")
        }
    }
}

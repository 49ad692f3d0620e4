import Foundation
import MomentaryClient
import MomentaryCore
import Testing

@Suite("Stream recorder")
struct StreamRecorderTests {
    @available(macOS 15.0, iOS 18.0, *)
    @Test("rows are appended on disk, cut into one batch per stream and sent after the participant's own uploads")
    func cutAndSend() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = FakeUploadServer()
        let queue = try UploadQueue(directory: directory.url.appendingPathComponent("queue"), sender: { try await server.receive($0) },
                                    clock: TestClock().uploadClock)
        let recorder = try await StreamRecorder(directory: directory.url.appendingPathComponent("streams"), queue: queue)
        try await recorder.append(["1774771200000,wifi", "1774771205000,cellular"], to: .reachability)
        try await recorder.append(["1774771210000,unreachable"], to: .reachability)
        try await recorder.append(["1774771200000,0.1,0.2,0.3"], to: .gyro)
        let onDisk = try String(contentsOf: directory.url.appendingPathComponent("streams/reachability.csv"), encoding: .utf8)
        #expect(onDisk == "timestamp,event\n1774771200000,wifi\n1774771205000,cellular\n1774771210000,unreachable\n")

        try await queue.enqueue(.response(Fixture.response(key: "k1")))
        let batches = try await recorder.cutBatches()
        #expect(batches.map(\.stream) == [.gyro, .reachability])
        #expect(batches.last?.csv == Data(onDisk.utf8))
        #expect(try await recorder.cutBatches().isEmpty, "nothing new to cut")

        _ = await queue.drain()
        let keys = batches.map(\.idempotencyKey)
        #expect(await server.effects == ["response:k1", "stream:gyro:\(keys[0])", "stream:reachability:\(keys[1])"])
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("a bad row is refused before anything is written")
    func badRowRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try UploadQueue(directory: directory.url.appendingPathComponent("queue"), sender: { _ in .accepted }, clock: TestClock().uploadClock)
        let recorder = try await StreamRecorder(directory: directory.url.appendingPathComponent("streams"), queue: queue)
        try await recorder.append(["1774771200000,NearUser"], to: .proximity)
        await #expect(throws: StreamBatchProblem.self) {
            try await recorder.append(["1774771201000,NotNearUser", "1774771202000,Pocket"], to: .proximity)
        }
        let batches = try await recorder.cutBatches()
        #expect(batches.map(\.csv) == [Data("timestamp,event\n1774771200000,NearUser\n".utf8)])
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("a file reaching the batch size is cut at once, and a batch cut before a crash is queued at the next start under its key")
    func sizeAndRecovery() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let streams = directory.url.appendingPathComponent("streams")
        let queue = try UploadQueue(directory: directory.url.appendingPathComponent("queue"), sender: { _ in .accepted }, clock: TestClock().uploadClock)
        let recorder = try await StreamRecorder(directory: streams, queue: queue, batchBytes: 100)
        let rows = (0..<5).map { "17747712\(String(format: "%05d", $0)),0,0,0" }
        try await recorder.append(Array(rows[0..<2]), to: .magnetometer)
        #expect(await queue.pending().isEmpty, "under 100 bytes")
        try await recorder.append(Array(rows[2..<5]), to: .magnetometer)
        #expect(await queue.pending().map(\.kind) == [.streamBatch], "cut on reaching 100 bytes")
        #expect(!FileManager.default.fileExists(atPath: streams.appendingPathComponent("magnetometer.csv").path))

        // As if the app died between renaming a batch and queuing it.
        let leftover = streams.appendingPathComponent("gps.left-over-key.batch")
        try Data("timestamp,latitude,longitude,altitude,accuracy\n1774771200000,51.5,-0.1,20,5\n".utf8).write(to: leftover)
        _ = try await StreamRecorder(directory: streams, queue: queue)
        let queued = await queue.pending().compactMap { upload -> StreamBatchUpload? in
            if case .streamBatch(let batch) = upload.item { batch } else { nil }
        }
        #expect(queued.map(\.stream) == [.magnetometer, .gps])
        #expect(queued.last?.idempotencyKey == "left-over-key")
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("a row torn by a crash mid-append is cut off at the next start; the rows before and after it go out")
    func tornRowDropped() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let streams = directory.url.appendingPathComponent("streams")
        try FileManager.default.createDirectory(at: streams, withIntermediateDirectories: true)
        try Data("timestamp,event\n1774771200000,wifi\n1774771205000,cell".utf8).write(to: streams.appendingPathComponent("reachability.csv"))
        let queue = try UploadQueue(directory: directory.url.appendingPathComponent("queue"), sender: { _ in .accepted }, clock: TestClock().uploadClock)
        let recorder = try await StreamRecorder(directory: streams, queue: queue)
        try await recorder.append(["1774771210000,unreachable"], to: .reachability)
        let batches = try await recorder.cutBatches()
        #expect(batches.map(\.csv) == [Data("timestamp,event\n1774771200000,wifi\n1774771210000,unreachable\n".utf8)])
        #expect(await queue.pending().count == 1, "queued, not set aside as refused")
    }
}

import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Passive stream uploads")
struct StreamUploadTests {
    static let hour: Int64 = 3_600_000
    static let base: Int64 = 1_732_521_600_000 // 2024-11-25T08:00:00Z, an hour boundary

    /// Accelerometer rows every 100 ms from `start` (10 Hz).
    static func accelerometer(from start: Int64, count: Int) -> Data {
        var text = PassiveStream.accelerometer.headerLine + "\n"
        for index in 0..<count {
            text += "\(start + Int64(index) * 100),iPhone15;iOS 18.1,0.0\(index % 10),-0.98,0.1\(index % 7)\n"
        }
        return Data(text.utf8)
    }

    static func post(
        _ server: RunningServer, _ stream: String, _ body: Data, key: String? = UUID().uuidString,
        auth: [String: String], headers extra: [String: String] = [:]
    ) async throws -> (status: Int, body: String) {
        var headers = auth.merging(["Content-Type": "text/csv"]) { $1 }
        if let key { headers["Idempotency-Key"] = key }
        return try await RawHTTP.send(server.baseURL, "POST", "/api/v1/uploads/\(stream)", body: body, headers: headers.merging(extra) { $1 })
    }

    @Test("an accepted batch is kept gzipped in the blob store and indexed by hour, with its receipt")
    func acceptedAndIndexed() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            // 50 minutes from 07:40: rows in the 07:00 and 08:00 hours.
            let csv = Self.accelerometer(from: Self.base - 20 * 60_000, count: 30_000)
            let receipt = try await client.uploadStreamBatch(csv, stream: .accelerometer, idempotencyKey: "batch-1")
            #expect(receipt.rowCount == 30_000)
            #expect(receipt.firstTimestamp == Self.base - 20 * 60_000)
            #expect(receipt.lastTimestamp == Self.base - 20 * 60_000 + 29_999 * 100)

            let hours = try await StreamHour.query(on: server.db).sort(\.$hourStart).all()
            #expect(hours.map(\.hourStart) == [Date(milliseconds: Self.base - Self.hour), Date(milliseconds: Self.base)])
            #expect(hours.map(\.rowCount) == [12_000, 18_000])
            #expect(hours.map(\.firstMilliseconds) == [Self.base - 20 * 60_000, Self.base])
            #expect(hours.allSatisfy { $0.$participant.id == registration.participantID && $0.stream == "accelerometer" && $0.$batch.id == receipt.batchID })

            let batch = try #require(try await StreamBatch.find(receipt.batchID, on: server.db))
            let blob = try #require(try await Blob.find(batch.$blob.id, on: server.db))
            #expect(blob.kind == .stream && blob.stream == "accelerometer")
            let file = try BlobStore(dataDirectory: server.configuration.dataDirectory).read(blob.storagePath)
            #expect(file.count < csv.count / 3, "kept compressed")
            #expect(try Gzip.decompress(file, limit: 1 << 30) == csv)
        }
    }

    @Test("gzip bodies are accepted and kept as sent; a retry with the same key is the same batch, a different body under it a 409")
    func gzipAndIdempotency() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            let auth = RawHTTP.basic(registration.participantID, registration.secret)
            let csv = Data("timestamp,event,level\n\(Self.base),Charging,40\n\(Self.base + 5000),Full,100\n".utf8)
            let gzipped = try Gzip.compress(csv)
            let first = try await Self.post(server, "power_state", gzipped, key: "k1", auth: auth, headers: ["Content-Encoding": "gzip"])
            #expect(first.status == 201, "\(first.body)")
            // The retry arrives uncompressed: the same CSV, so the same batch.
            let retry = try await client.uploadStreamBatch(csv, stream: .powerState, idempotencyKey: "k1")
            #expect(first.body.lowercased().contains(retry.batchID.uuidString.lowercased()))
            #expect(retry.rowCount == 2 && retry.firstTimestamp == Self.base && retry.lastTimestamp == Self.base + 5000)
            let again = try await Self.post(server, "power_state", gzipped, key: "k1", auth: auth, headers: ["Content-Encoding": "gzip"])
            #expect(again.status == 200 && again.body == first.body)

            let other = Data("timestamp,event,level\n\(Self.base),Unplugged,39\n".utf8)
            let conflict = try await Self.post(server, "power_state", other, key: "k1", auth: auth)
            #expect(conflict.status == 409 && conflict.body.contains(#""code":"conflict""#), "\(conflict.body)")
            // The same key on another stream is another batch.
            let proximity = try await Self.post(server, "proximity", Data("timestamp,event\n\(Self.base),NearUser\n".utf8), key: "k1", auth: auth)
            #expect(proximity.status == 201)

            #expect(try await StreamBatch.query(on: server.db).count() == 2)
            #expect(try await StreamHour.query(on: server.db).count() == 2)
            let stored = try #require(try await Blob.query(on: server.db).filter(\.$stream == "power_state").first())
            #expect(try BlobStore(dataDirectory: server.configuration.dataDirectory).read(stored.storagePath) == gzipped)

            let broken = try await Self.post(server, "power_state", gzipped.prefix(gzipped.count - 3), key: "k2", auth: auth, headers: ["Content-Encoding": "gzip"])
            #expect(broken.status == 400, "\(broken.body)")
        }
    }

    @Test("a bad header, row or value refuses the batch with 422 naming line and column, and stores nothing")
    func refusals() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (_, registration) = try await APIFixture.register(on: server)
            let auth = RawHTTP.basic(registration.participantID, registration.secret)
            let cases: [(String, String, Int, String?)] = [
                ("timestamp,x,y,Z\n\(Self.base),1,2,3\n", "gyro", 1, "z"),
                ("timestamp,x,y,z\n\(Self.base),1,2,3\n\(Self.base + 10),1,2\n", "gyro", 3, "z"),
                ("timestamp,x,y,z\n\(Self.base),1,2,3\n\(Self.base / 1000),1,2,3\n", "gyro", 3, "timestamp"),
                ("timestamp,x,y,z\n\(Self.base),1,two,3\n", "gyro", 2, "y"),
                ("timestamp,event\n\(Self.base),ethernet\n", "reachability", 2, "event"),
                ("timestamp,event\n\(Self.base),wifi,extra\n", "reachability", 2, nil),
            ]
            for (csv, stream, line, column) in cases {
                let answer = try await Self.post(server, stream, Data(csv.utf8), auth: auth)
                #expect(answer.status == 422, "\(answer.body)")
                #expect(answer.body.contains(#""line":\#(line)"#), "\(answer.body)")
                if let column {
                    #expect(answer.body.contains(#""column":"\#(column)""#), "\(answer.body)")
                } else {
                    #expect(!answer.body.contains(#""column""#), "\(answer.body)")
                }
            }
            let good = Data("timestamp,event\n\(Self.base),wifi\n".utf8)
            #expect(try await Self.post(server, "temperature", good, auth: auth).status == 404)
            #expect(try await Self.post(server, "reachability", good, key: nil, auth: auth).status == 400)
            #expect(try await Self.post(server, "reachability", good, key: "no spaces", auth: auth).status == 400)
            #expect(try await Self.post(server, "reachability", good, auth: auth, headers: ["Content-Type": "application/json"]).status == 415)
            #expect(try await Self.post(server, "reachability", good, auth: [:]).status == 401)
            #expect(try await StreamBatch.query(on: server.db).count() == 0)
            #expect(try await Blob.query(on: server.db).count() == 0)
            let streams = server.configuration.dataDirectory.appendingPathComponent("blobs/streams")
            #expect(((try? FileManager.default.subpathsOfDirectory(atPath: streams.path)) ?? []).allSatisfy { !$0.hasSuffix(".gz") })
        }
    }

    @Test("one participant's batches are theirs: another's key does not reach them, and deleting their data removes batches, index and files")
    func participantsAreSeparate() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (alice, aliceRegistration) = try await APIFixture.register(on: server)
            let (bob, _) = try await APIFixture.register(on: server, APIFixture.registration(seed: 3))
            let csv = Data("timestamp,event\n\(Self.base),NearUser\n".utf8)
            let aliceReceipt = try await alice.uploadStreamBatch(csv, stream: .proximity, idempotencyKey: "same")
            let other = Data("timestamp,event\n\(Self.base),NotNearUser\n".utf8)
            // Bob's key is his own: the same key with other data is a new batch, not a conflict with Alice's.
            let bobReceipt = try await bob.uploadStreamBatch(other, stream: .proximity, idempotencyKey: "same")
            #expect(bobReceipt.batchID != aliceReceipt.batchID)
            let aliceHours = try await StreamHour.query(on: server.db).filter(\.$participant.$id == aliceRegistration.participantID).all()
            #expect(aliceHours.map(\.$batch.id) == [aliceReceipt.batchID])
            let participant = try #require(try await Participant.find(aliceRegistration.participantID, on: server.db))
            let blobs = BlobStore(dataDirectory: server.configuration.dataDirectory)
            let aliceFile = try #require(try await Blob.query(on: server.db).filter(\.$participant.$id == aliceRegistration.participantID).first()).storagePath
            try await ParticipantAdministration.deleteSentData(of: participant, blobs: blobs, on: server.db)
            #expect(try await StreamBatch.query(on: server.db).all().map(\.id) == [bobReceipt.batchID])
            #expect(try await StreamHour.query(on: server.db).count() == 1)
            #expect(throws: (any Error).self) { try blobs.read(aliceFile) }
        }
    }

    @Test("a batch over the size limit is 413 and a participant over the daily allowance 429 with Retry-After; nothing is stored")
    func sizeLimits() async throws {
        try await withRunningServer(adjusting: { $0.streamLimits = StreamUploadLimits(batchBytes: 100_000, dailyBytes: 150_000) }) { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            let auth = RawHTTP.basic(registration.participantID, registration.secret)
            let big = Self.accelerometer(from: Self.base, count: 3_000) // about 130 kB
            #expect(big.count > 100_000)
            let plain = try await Self.post(server, "accelerometer", big, auth: auth)
            #expect(plain.status == 413 && plain.body.contains("payload_too_large"), "\(plain.body)")
            // Small when compressed, too big once inflated.
            let zipped = try await Self.post(server, "accelerometer", try Gzip.compress(big), auth: auth, headers: ["Content-Encoding": "gzip"])
            #expect(zipped.status == 413, "\(zipped.body)")

            let batch = Self.accelerometer(from: Self.base, count: 1_500) // about 65 kB
            _ = try await client.uploadStreamBatch(batch, stream: .accelerometer, idempotencyKey: "a")
            _ = try await client.uploadStreamBatch(Self.accelerometer(from: Self.base + 150_000, count: 1_500), stream: .accelerometer, idempotencyKey: "b")
            let over = try await RawHTTP.send(server.baseURL, "POST", "/api/v1/uploads/accelerometer",
                                              body: Self.accelerometer(from: Self.base + 300_000, count: 1_500),
                                              headers: auth.merging(["Content-Type": "text/csv", "Idempotency-Key": "c"]) { $1 })
            #expect(over.status == 429 && over.body.contains("too_many_requests"), "\(over.body)")
            await #expect { try await client.uploadStreamBatch(batch, stream: .accelerometer, idempotencyKey: "d") }
                throws: { ($0 as? MomentaryClientError)?.retryAfter.map { $0 >= 60 } == true }
            // A retry of an accepted batch is still answered: it adds nothing.
            _ = try await client.uploadStreamBatch(batch, stream: .accelerometer, idempotencyKey: "a")
            #expect(try await StreamBatch.query(on: server.db).count() == 2)
        }
    }

    @Test("Android's column sets and the current iOS app's `dismissing question` are taken as the phones write them, and export under their own header")
    func androidShapes() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (_, registration) = try await APIFixture.register(on: server)
            let auth = RawHTTP.basic(registration.participantID, registration.secret)
            let t = Self.base
            let batches: [(String, String, String?)] = [
                ("gps", "timestamp, latitude, longitude, altitude, accuracy\n\(t),51.5073509,-0.1277583,35.0,12.0\n", nil),
                ("gyro", "timestamp,accuracy,x,y,z\n\(t),3,-0.0024,0.0012,0.0\n", "Android"),
                ("power_state", "timestamp, event\n\(t),Screen turned on\n\(t + 9),Device Idle (Doze) state change signal received; device in idle state.\n", "Android"),
                ("survey_timings", "timestamp,question id,question type,question text,question answer options,answer\n"
                    + "\(t),Survey first rendered and displayed to user\n\(t + 5),q1,Slider Question,Mood?,min = 1; max = 5,3\n\(t + 9),User hit submit\n", "Android"),
                ("survey_timings", PassiveStream.surveyTimings.headerLine + "\n\(t + 20),q1,slider,Mood?,min = 1; max = 5,2,dismissing question\n", nil),
            ]
            for (stream, csv, format) in batches {
                let answer = try await Self.post(server, stream, Data(csv.utf8), auth: auth)
                #expect(answer.status == 201, "\(stream): \(answer.body)")
                let batch = try #require(try await StreamBatch.query(on: server.db).filter(\.$stream == stream).sort(\.$receivedAt).all().last)
                #expect(batch.format == format, "\(stream)")
            }
            // A message row is only ever Android's two survey-level events.
            let other = "timestamp,question id,question type,question text,question answer options,answer\n\(t),User hit cancel\n"
            let refused = try await Self.post(server, "survey_timings", Data(other.utf8), auth: auth)
            #expect(refused.status == 422 && refused.body.contains(#""line":2"#), "\(refused.body)")

            let blobs = BlobStore(dataDirectory: server.configuration.dataDirectory)
            let gyro = try await StreamExport.csv(
                participantID: registration.participantID, stream: .gyro, from: nil, end: nil, blobs: blobs, on: server.db)
            #expect(String(decoding: gyro.csv, as: UTF8.self) == "timestamp,accuracy,x,y,z\n\(t),3,-0.0024,0.0012,0.0\n")
            // An iOS phone's batch beside an Android one: the wider header, each value under its name.
            let iOS = try await Self.post(server, "gyro", Data("timestamp,x,y,z\n\(t + 1),0.5,0.6,0.7\n".utf8), auth: auth)
            #expect(iOS.status == 201)
            let both = try await StreamExport.csv(
                participantID: registration.participantID, stream: .gyro, from: nil, end: nil, blobs: blobs, on: server.db)
            #expect(String(decoding: both.csv, as: UTF8.self) == "timestamp,accuracy,x,y,z\n\(t),3,-0.0024,0.0012,0.0\n\(t + 1),,0.5,0.6,0.7\n")
            let timings = try await StreamExport.csv(
                participantID: registration.participantID, stream: .surveyTimings, from: nil, end: nil, blobs: blobs, on: server.db)
            #expect(String(decoding: timings.csv, as: UTF8.self) == PassiveStream.surveyTimings.headerLine + "\n"
                + "\(t),Survey first rendered and displayed to user,,,,,\n\(t + 5),q1,Slider Question,Mood?,min = 1; max = 5,3,\n"
                + "\(t + 9),User hit submit,,,,,\n\(t + 20),q1,slider,Mood?,min = 1; max = 5,2,dismissing question\n")
        }
    }
}

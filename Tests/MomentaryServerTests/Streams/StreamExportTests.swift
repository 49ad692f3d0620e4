import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import ZIPFoundation

@Suite("Passive stream export")
struct StreamExportTests {
    static let base = StreamUploadTests.base // 2024-11-25T08:00:00Z
    static let day: Int64 = 86_400_000

    /// A ZIP's entries as text, by path.
    static func entries(of archive: Archive) throws -> [String: String] {
        var entries: [String: String] = [:]
        for entry in archive {
            var bytes = Data()
            _ = try archive.extract(entry) { bytes.append($0) }
            entries[entry.path] = String(decoding: bytes, as: UTF8.self)
        }
        return entries
    }

    static func store(_ csv: String, _ stream: PassiveStream, key: String, for participantID: UUID, blobs: BlobStore, on db: any Database) async throws {
        _ = try await StreamUploadService.store(
            .init(stream: stream, idempotencyKey: key, body: Data(csv.utf8), gzipped: false),
            from: participantID, limits: .standard, blobs: blobs, on: db, now: Date())
    }

    @Test("overlapping batches export as one time-ordered CSV without repeats, only in the asked days and only the participant's")
    func mergedSlice() async throws {
        try await withTestApp { app, configuration in
            let blobs = BlobStore(dataDirectory: configuration.dataDirectory)
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            let bob = try await fixture.participant(label: "BOB01", on: app.db)
            let header = PassiveStream.reachability.headerLine
            let (d0, d1, d2) = (Self.base, Self.base + Self.day, Self.base + 2 * Self.day)
            try await Self.store("\(header)\n\(d1 + 5),wifi\n\(d0),cellular\n\(d1),unreachable\n", .reachability, key: "a", for: alice, blobs: blobs, on: app.db)
            // Sent again with one more row (the phone cut the batch anew): the repeated rows appear once.
            try await Self.store("\(header)\n\(d0),cellular\n\(d1),unreachable\n\(d1 + 5),wifi\n\(d2),wifi\n", .reachability, key: "b", for: alice, blobs: blobs, on: app.db)
            try await Self.store("\(header)\n\(d1 + 1),cellular\n", .reachability, key: "a", for: bob, blobs: blobs, on: app.db)

            let all = try await StreamExport.csv(participantID: alice, stream: .reachability, from: nil, end: nil, blobs: blobs, on: app.db)
            #expect(String(decoding: all.csv, as: UTF8.self) == "\(header)\n\(d0),cellular\n\(d1),unreachable\n\(d1 + 5),wifi\n\(d2),wifi\n")
            #expect(all.summary.batches == 2 && all.summary.rows == 4)

            // 26 November only: the index names both batches, the rows are cut to the day.
            let filter = try ExportFilter.parse(from: "2024-11-26", to: "2024-11-26", participants: [])
            let day = try await StreamExport.csv(participantID: alice, stream: .reachability, from: filter.earliest, end: filter.end, blobs: blobs, on: app.db)
            #expect(String(decoding: day.csv, as: UTF8.self) == "\(header)\n\(d1),unreachable\n\(d1 + 5),wifi\n")

            // 27 November: only the second batch is read.
            let last = try ExportFilter.parse(from: "2024-11-27", to: nil, participants: [])
            let late = try await StreamExport.csv(participantID: alice, stream: .reachability, from: last.earliest, end: nil, blobs: blobs, on: app.db)
            #expect(late.summary.batches == 1 && String(decoding: late.csv, as: UTF8.self) == "\(header)\n\(d2),wifi\n")

            let none = try await StreamExport.csv(participantID: alice, stream: .gps, from: nil, end: nil, blobs: blobs, on: app.db)
            #expect(String(decoding: none.csv, as: UTF8.self) == PassiveStream.gps.headerLine + "\n")
        }
    }

    @Test("the CSV is written a UTC day at a time: a batch across midnight gives its rows to both days, repeats still meet")
    func dayPieces() async throws {
        try await withTestApp { app, configuration in
            let blobs = BlobStore(dataDirectory: configuration.dataDirectory)
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            let header = PassiveStream.proximity.headerLine
            let midnight = Self.base + 16 * 3_600_000 // 2024-11-26T00:00:00Z
            try await Self.store("\(header)\n\(midnight),NearUser\n\(midnight - 1),NotNearUser\n\(midnight - 2),NearUser\n", .proximity,
                                 key: "a", for: alice, blobs: blobs, on: app.db)
            // A resent piece of the first batch: its rows on both sides of midnight are repeats.
            try await Self.store("\(header)\n\(midnight - 1),NotNearUser\n\(midnight),NearUser\n\(midnight + 1),NotNearUser\n", .proximity,
                                 key: "b", for: alice, blobs: blobs, on: app.db)
            var pieces: [String] = []
            let summary = try await StreamExport.write(participantID: alice, stream: .proximity, from: nil, end: nil, blobs: blobs, on: app.db) {
                pieces.append(String(decoding: $0, as: UTF8.self))
            }
            #expect(pieces == [
                "\(header)\n",
                "\(midnight - 2),NearUser\n\(midnight - 1),NotNearUser\n",
                "\(midnight),NearUser\n\(midnight + 1),NotNearUser\n",
            ])
            #expect(summary.rows == 4 && summary.batches == 2)
        }
    }

    @Test("momentary export streams writes the CSV to standard output or a file, by participant id or label, and refuses bad arguments")
    func command() async throws {
        let header = PassiveStream.gyro.headerLine
        let commandData = try await CommandData.make("momentary-streams-cli") { app, directory in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(label: "ALICE", on: app.db)
            let bob = try await fixture.participant(label: "BOB01", on: app.db)
            let blobs = BlobStore(dataDirectory: directory)
            try await Self.store("\(PassiveStream.reachability.headerLine)\n\(Self.base),wifi\n", .reachability, key: "1", for: bob, blobs: blobs, on: app.db)
            try await Self.store("\(header)\n\(Self.base + 200),0.3,0,0\n\(Self.base + 100),0.1,0,0\n", .gyro, key: "1", for: alice, blobs: blobs, on: app.db)
            try await Self.store("\(header)\n\(Self.base + 100),0.1,0,0\n\(Self.base + 150),0.2,0,0\n", .gyro, key: "2", for: alice, blobs: blobs, on: app.db)
            return alice
        }
        let (alice, directory, data) = (commandData.prepared, commandData.directory, commandData.arguments)
        let expected = "\(header)\n\(Self.base + 100),0.1,0,0\n\(Self.base + 150),0.2,0,0\n\(Self.base + 200),0.3,0,0"

        let printed = await runCommand(["export", "streams", "--study", "city-moods", "--participant", "alice", "--stream", "gyro"] + data)
        #expect(printed.code == 0, "\(printed.errors)")
        #expect(printed.output == expected)
        #expect(printed.errors.contains("Exported 3 gyro rows from 2 batches"))

        let file = directory.appendingPathComponent("gyro.csv").path
        let written = await runCommand(["export", "streams", "--study", "city-moods", "--participant", alice.uuidString,
                                        "--stream", "gyro", "--from", "2024-11-25", "--to", "2024-11-25", "--output", file] + data)
        #expect(written.code == 0, "\(written.errors)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == expected + "\n")

        let zip = directory.appendingPathComponent("streams.zip")
        let both = await runCommand(["export", "streams", "--study", "city-moods", "--participant", "alice", "--participant", "BOB01",
                                     "--participant", alice.uuidString, "--stream", "gyro", "--stream", "reachability",
                                     "--output", zip.path] + data)
        #expect(both.code == 0, "\(both.errors)")
        #expect(both.errors.contains("Exported 4 rows from 3 batches in 4 files"), "\(both.errors)")
        #expect(try Self.entries(of: Archive(url: zip, accessMode: .read)) == [
            "ALICE/gyro.csv": expected + "\n", "ALICE/reachability.csv": PassiveStream.reachability.headerLine + "\n",
            "BOB01/gyro.csv": header + "\n", "BOB01/reachability.csv": "\(PassiveStream.reachability.headerLine)\n\(Self.base),wifi\n",
        ], "one entry a participant and stream, the same participant named twice once")

        // Alice named by label and by id, and gyro twice: one participant's stream, so one CSV.
        let twice = await runCommand(["export", "streams", "--study", "city-moods", "--participant", "alice",
                                      "--participant", alice.uuidString, "--stream", "gyro", "--stream", "gyro"] + data)
        #expect(twice.code == 0 && twice.output == expected, "\(twice.errors)")

        // Without --participant: everyone who uploaded the streams, here only Alice.
        let everyone = await runCommand(["export", "streams", "--study", "city-moods", "--stream", "gyro", "--output", zip.path] + data)
        #expect(everyone.code == 0, "\(everyone.errors)")
        #expect(try Self.entries(of: Archive(url: zip, accessMode: .read)) == ["ALICE/gyro.csv": expected + "\n"])

        let refusals: [([String], Int32)] = [
            (["--participant", "alice", "--participant", "BOB01", "--stream", "gyro"], 2),
            (["--stream", "gyro"], 2),
            (["--stream", "gps", "--output", directory.appendingPathComponent("nobody.zip").path], 2),
            (["--participant", "alice", "--stream", "gyro", "--stream", "gps", "--output", directory.appendingPathComponent("x.csv").path], 2),
            (["--participant", "alice", "--stream", "thermometer"], 2),
            (["--participant", "alice", "--stream", "gyro", "--from", "25 November"], 2),
            (["--participant", "nobody", "--stream", "gyro"], 2),
            (["--participant", "ZZZZZ", "--stream", "gyro"], 1),
            (["--participant", UUID().uuidString, "--stream", "gyro"], 1),
        ]
        for (arguments, code) in refusals {
            let result = await runCommand(["export", "streams", "--study", "city-moods"] + arguments + data)
            #expect(result.code == code, "\(arguments): \(result.errors)")
            #expect(result.errors.hasPrefix("momentary: ") && result.output.isEmpty, "\(arguments): \(result.errors)")
        }
    }
}

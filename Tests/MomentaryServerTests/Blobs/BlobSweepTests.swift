import Fluent
import Foundation
@testable import MomentaryServer
import Testing

@Suite("Blob sweep")
struct BlobSweepTests {
    @Test("files a crash left behind (unfinished .tmp- files, whole files with no row) are removed after an hour; recorded and recent files stay")
    func sweepsOrphans() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, _) = try await APIFixture.register(on: server)
            let receipt = try await client.submitResponse(APIFixture.submission(key: "kept"))
            let photo = try await client.uploadPhoto(TestJPEG.make([7, 7]), responseID: receipt.responseID, isPublic: false)
            let recorded = try #require(try await Blob.find(photo.photoID, on: server.db)).storagePath

            let store = BlobStore(dataDirectory: server.configuration.dataDirectory)
            let orphan = "photos/\(UUID().uuidString.lowercased())/\(UUID().uuidString.lowercased()).jpg"
            let orphanBatch = "streams/\(UUID().uuidString.lowercased())/gps/\(UUID().uuidString.lowercased()).csv.gz"
            let unfinished = "streams/\(UUID().uuidString.lowercased())/.tmp-\(UUID().uuidString)"
            let recentOrphan = "photos/\(UUID().uuidString.lowercased())/recent.jpg"
            for path in [orphan, orphanBatch, unfinished, recentOrphan] {
                let url = store.root.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("left by a crash".utf8).write(to: url)
            }
            let twoHoursAgo = Date().addingTimeInterval(-7_200)
            for path in [recorded, orphan, orphanBatch, unfinished] {
                try FileManager.default.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: store.root.appendingPathComponent(path).path)
            }

            let outcome = try await BlobSweep.run(store, on: server.db, now: Date())
            #expect(outcome == BlobSweep.Outcome(temporaryFiles: 1, orphans: 2))
            func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: store.root.appendingPathComponent(path).path) }
            #expect(exists(recorded), "a file with a row is never removed, however old")
            #expect(exists(recentOrphan), "a file younger than an hour may be an upload about to commit")
            #expect(!exists(orphan) && !exists(orphanBatch) && !exists(unfinished))
            #expect(try await BlobSweep.run(store, on: server.db, now: Date()) == BlobSweep.Outcome(), "a second sweep finds nothing")
        }
    }
}

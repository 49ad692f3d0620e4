import Fluent
import Foundation
@testable import MomentaryServer
import Testing

@Suite("Metadata of photos stored earlier")
struct PhotoMetadataCleanupTests {
    @Test("photos stored with EXIF are rewritten without it, their rows follow, the pass runs once per store and again changes nothing")
    func stripsStoredPhotos() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            let receipt = try await client.submitResponse(APIFixture.submission(key: "old"))
            let store = BlobStore(dataDirectory: server.configuration.dataDirectory)
            // As an upload before stripping left it: the phone's bytes, EXIF and all.
            let withGPS = TestJPEG.make([1, 2, 3], exif: "GPSLatitude 51.5074 SerialNumber 4711")
            let old = try await PhotoFixture.store(
                withGPS, at: "photos/\(registration.participantID.uuidString.lowercased())/old.jpg",
                participant: registration.participantID, response: receipt.responseID, in: store, on: server.db)
            let uploaded = try await client.uploadPhoto(TestJPEG.make([4, 5], exif: "GPSLatitude 48.85"), responseID: receipt.responseID, isPublic: false)

            var pages: [PhotoMetadataCleanup.Outcome] = []
            let outcome = try #require(try await PhotoMetadataCleanup.runIfNeeded(store, on: server.db))
            #expect(outcome == .init(checked: 2, cleaned: 1, skipped: 0), "the uploaded photo was stripped on upload")

            let stored = try store.read(old.storagePath)
            #expect(stored.range(of: Data("Exif".utf8)) == nil && stored.range(of: Data("GPSLatitude".utf8)) == nil)
            #expect(stored == TestJPEG.make([1, 2, 3]), "the picture itself is kept byte for byte")
            let row = try #require(try await Blob.find(try old.requireID(), on: server.db))
            #expect(row.byteCount == stored.count && row.sha256 == BlobStore.sha256(stored))
            let uploadedRow = try #require(try await Blob.find(uploaded.photoID, on: server.db))
            #expect(try store.read(uploadedRow.storagePath).range(of: Data("GPSLatitude".utf8)) == nil)

            #expect(try await PhotoMetadataCleanup.runIfNeeded(store, on: server.db) == nil, "once per store")
            let again = try await PhotoMetadataCleanup.run(store, on: server.db) { pages.append($0) }
            #expect(again == .init(checked: 2, cleaned: 0, skipped: 0))
            #expect(pages.last == again, "progress is reported per page")
        }
    }
}

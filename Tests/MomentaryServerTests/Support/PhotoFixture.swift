import Fluent
import Foundation
@testable import MomentaryServer

/// A photo written to the blob store and recorded in `blobs`, as an upload leaves it.
enum PhotoFixture {
    @discardableResult
    static func store(
        _ data: Data, at relativePath: String, participant: UUID, response: UUID, in store: BlobStore, on db: any Database
    ) async throws -> Blob {
        let stored = try store.write(data, relativePath: relativePath)
        let blob = Blob()
        blob.$participant.id = participant
        blob.$response.id = response
        blob.kind = .photo
        blob.storagePath = stored.relativePath
        blob.contentType = "image/jpeg"
        blob.byteCount = stored.byteCount
        blob.sha256 = stored.sha256
        blob.isPublic = false
        blob.createdAt = Date()
        try await blob.save(on: db)
        return blob
    }
}

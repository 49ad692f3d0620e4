import Fluent
import Foundation
import MomentaryCore

/// Photos taken with a response (Mappiness `image`): one whole JPEG of at most 40 megapixels
/// (`JPEGStructure`), size-limited, stored without its metadata (EXIF with the GPS position, the
/// camera's serial, …: `JPEGMetadata`) in the blob store and indexed. Uploading the same bytes
/// again for the same response returns the same photo.
enum PhotoService {
    static let maximumBytes = 5 * 1024 * 1024

    struct Outcome {
        let receipt: PhotoReceipt
        let created: Bool
    }

    static func store(
        _ data: Data, isPublic: Bool, responseID: UUID, participantID: UUID,
        blobs: BlobStore, on db: any Database, now: Date
    ) async throws -> Outcome {
        do {
            _ = try JPEGStructure.check(data)
        } catch {
            throw APIError(.unsupportedMediaType, "The photo must be one JPEG image, and this is not: \(error.description).")
        }
        guard let clean = JPEGMetadata.stripped(data) else {
            throw APIError(.unsupportedMediaType, "The photo must be one JPEG image, and this one cannot be read.")
        }
        guard let response = try await SurveyResponse.find(responseID, on: db), response.$participant.id == participantID else {
            throw APIError.notFound("There is no response \(responseID.uuidString.lowercased()) for you.")
        }
        let digest = BlobStore.sha256(data)
        let uploadKey = "photo:\(responseID.uuidString.lowercased()):\(digest)"
        if let existing = try await Blob.query(on: db)
            .filter(\.$participant.$id == participantID).filter(\.$uploadKey == uploadKey).first() {
            return Outcome(receipt: PhotoReceipt(photoID: try existing.requireID()), created: false)
        }
        let photoID = UUID()
        let stored = try blobs.write(
            clean, relativePath: "photos/\(participantID.uuidString.lowercased())/\(photoID.uuidString.lowercased()).jpg")
        let blob = Blob()
        blob.id = photoID
        blob.$participant.id = participantID
        blob.$response.id = try response.requireID()
        blob.kind = .photo
        blob.storagePath = stored.relativePath
        blob.contentType = WireCoding.jpegContentType
        blob.byteCount = stored.byteCount
        blob.sha256 = stored.sha256
        blob.isPublic = isPublic
        blob.uploadKey = uploadKey
        blob.createdAt = now
        do {
            try await blob.create(on: db)
        } catch {
            blobs.remove(stored.relativePath)
            // Two identical uploads at once: the unique upload key lets one win; return its photo.
            guard (error as? any DatabaseError)?.isConstraintFailure == true,
                  let existing = try await Blob.query(on: db)
                    .filter(\.$participant.$id == participantID).filter(\.$uploadKey == uploadKey).first()
            else { throw error }
            return Outcome(receipt: PhotoReceipt(photoID: try existing.requireID()), created: false)
        }
        return Outcome(receipt: PhotoReceipt(photoID: photoID), created: true)
    }

}

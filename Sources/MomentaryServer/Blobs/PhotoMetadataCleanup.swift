import Fluent
import Foundation
import MomentaryCore

/// Photos stored before uploads were stripped of their metadata still carry EXIF (the GPS
/// position, the time, the camera's serial). This pass rewrites each such file without it and
/// updates its row; `serve` runs it once per blob store (a marker file records that it finished)
/// and `momentary photos strip-metadata` runs it by hand. Running it again changes nothing.
enum PhotoMetadataCleanup {
    struct Outcome: Equatable, Sendable {
        var checked = 0
        var cleaned = 0
        /// Rows whose file is gone or no longer reads as a JPEG; left as they are.
        var skipped = 0
    }

    /// Present in the store's root once a pass went through every photo.
    static let markerName = ".photo-metadata-stripped"
    private static let page = 500

    static func run(_ store: BlobStore, on db: any Database, progress: (Outcome) -> Void = { _ in }) async throws -> Outcome {
        var outcome = Outcome()
        var after: UUID?
        while true {
            var query = Blob.query(on: db).filter(\.$kind == .photo).sort(\.$id).limit(page)
            if let after { query = query.filter(\.$id > after) }
            let photos = try await query.all()
            guard let last = photos.last else { break }
            for photo in photos {
                outcome.checked += 1
                guard let data = try? store.read(photo.storagePath), let clean = JPEGMetadata.stripped(data) else {
                    outcome.skipped += 1
                    continue
                }
                let digest = BlobStore.sha256(clean)
                guard clean != data || photo.sha256 != digest else { continue }
                // File first, then its row: a crash between them leaves a clean file whose row the
                // next pass corrects (the digest differs), never a row promising bytes not there.
                if clean != data { _ = try store.write(clean, relativePath: photo.storagePath) }
                photo.byteCount = clean.count
                photo.sha256 = digest
                try await photo.save(on: db)
                outcome.cleaned += 1
            }
            after = try last.requireID()
            progress(outcome)
        }
        try FileManager.default.createDirectory(at: store.root, withIntermediateDirectories: true)
        try Data().write(to: store.root.appendingPathComponent(markerName))
        return outcome
    }

    /// The pass, unless it already finished for this store.
    static func runIfNeeded(_ store: BlobStore, on db: any Database) async throws -> Outcome? {
        guard !FileManager.default.fileExists(atPath: store.root.appendingPathComponent(markerName).path) else { return nil }
        return try await run(store, on: db)
    }
}

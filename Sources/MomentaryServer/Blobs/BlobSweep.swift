import Fluent
import Foundation
import Logging
import MomentaryCore

/// Removes files in the blob store that nothing refers to: temporary files (`.tmp-…`) a crash left
/// mid-write, and whole files whose row was never committed because the server stopped between
/// writing the file and committing (a write is always file first, row second). Only files older
/// than `minimumAge` are touched, so an upload in progress is never swept from under itself.
enum BlobSweep {
    static let minimumAge: TimeInterval = 3_600
    /// How many paths one query asks about.
    private static let chunk = 500

    struct Outcome: Equatable {
        var temporaryFiles = 0
        var orphans = 0
    }

    static func run(_ store: BlobStore, on db: any Database, now: Date) async throws -> Outcome {
        var outcome = Outcome()
        var candidates: [String] = []
        let cutoff = now.addingTimeInterval(-minimumAge)
        // Files in the root are the store's own records (`PhotoMetadataCleanup.markerName`), not blobs.
        for file in files(under: store.root) where file.modified < cutoff && file.relativePath.contains("/") {
            if file.name.hasPrefix(AtomicFile.temporaryPrefix) {
                store.remove(file.relativePath)
                outcome.temporaryFiles += 1
            } else {
                candidates.append(file.relativePath)
            }
        }
        for start in stride(from: 0, to: candidates.count, by: chunk) {
            let paths = Array(candidates[start..<min(start + chunk, candidates.count)])
            let known = Set(try await Blob.query(on: db).filter(\.$storagePath ~~ paths).all(\.$storagePath))
            for path in paths where !known.contains(path) {
                store.remove(path)
                outcome.orphans += 1
            }
        }
        return outcome
    }

    /// The periodic job `serve` runs: at start, then hourly; its first run also strips the metadata
    /// of photos stored before uploads were stripped (`PhotoMetadataCleanup`), once per store.
    static func job(_ store: BlobStore) -> PeriodicJob {
        PeriodicJob(component: "blob-sweep", every: .seconds(Int(minimumAge))) { db, now, logger in
            do {
                if let cleaned = try await PhotoMetadataCleanup.runIfNeeded(store, on: db), cleaned.cleaned > 0 {
                    logger.notice("Removed the metadata (EXIF) of \(cleaned.cleaned) of \(cleaned.checked) photos stored before uploads were stripped")
                }
                let outcome = try await run(store, on: db, now: now)
                if outcome != Outcome() {
                    logger.notice("Removed \(outcome.temporaryFiles) unfinished and \(outcome.orphans) unrecorded blob files left by an interrupted upload")
                }
            } catch {
                logger.error("The blob sweep failed; it runs again in an hour", metadata: ["error": "\(error)"])
            }
        }
    }

    private struct File {
        let relativePath: String
        let name: String
        let modified: Date
    }

    private static func files(under root: URL) -> [File] {
        let keys: [URLResourceKey] = [.isRegularFileKey, .contentModificationDateKey]
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else { return [] }
        let prefix = root.standardizedFileURL.path + "/"
        var found: [File] = []
        for case let url as URL in walk {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true,
                  let modified = values.contentModificationDate else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(prefix) else { continue }
            found.append(File(relativePath: String(path.dropFirst(prefix.count)), name: url.lastPathComponent, modified: modified))
        }
        return found
    }
}

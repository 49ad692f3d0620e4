import Fluent
import Foundation
import SQLKit

/// The end of a study's life. Archiving stops it (no new participants, no beeps: pending ones are
/// cancelled and planning stops) and keeps every answer for the exports; reopening plans again.
/// Deleting removes the study with everything in it, files included, for good.
enum StudyLifecycle {
    static func archive(_ study: Study, on db: any Database, now: Date) async throws {
        guard study.archivedAt == nil else { return }
        let studyID = try study.requireID()
        try await db.transaction { db in
            study.archivedAt = now
            study.updatedAt = now
            try await study.save(on: db)
            let participants = try await Participant.query(on: db).filter(\.$study.$id == studyID).all(\.$id)
            for participantID in participants {
                try await BeepPlanner.cancelPendingBeeps(of: participantID, on: db, now: now, reason: "the study was archived")
            }
        }
    }

    /// Takes the study out of the archive and plans its participants' beeps again; returns how many were planned.
    static func reopen(_ study: Study, on db: any Database, now: Date) async throws -> Int {
        guard study.archivedAt != nil else { return 0 }
        study.archivedAt = nil
        study.updatedAt = now
        try await study.save(on: db)
        return try await BeepPlanner.studyRulesChanged(try study.requireID(), on: db, now: now)
    }

    /// Deletes the study, its surveys, codes, participants, beeps, answers and files. The rows go
    /// in one transaction (participants first, whose rows cascade; then the study, whose surveys
    /// and codes cascade); the files after it commits, so a crash leaves at worst files without
    /// rows, which the blob sweep removes.
    static func delete(_ study: Study, blobs: BlobStore, on db: any Database) async throws {
        let studyID = try study.requireID()
        let paths = try await db.transaction { db -> [String] in
            try await db.lockStudyForWriting(studyID)
            let paths = try await Blob.query(on: db).join(Participant.self, on: \Blob.$participant.$id == \Participant.$id)
                .filter(Participant.self, \.$study.$id == studyID).all(\.$storagePath)
            try await Participant.query(on: db).filter(\.$study.$id == studyID).delete()
            try await study.delete(on: db)
            return paths
        }
        for path in paths { blobs.remove(path) }
    }
}

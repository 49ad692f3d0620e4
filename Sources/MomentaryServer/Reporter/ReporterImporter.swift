import Fluent
import Foundation
import MomentaryCore

/// Brings a Reporter user's history into a study: daily files, the full export, or both
/// (`ReporterFiles`) become one participant, whose questions become a survey
/// (`ReporterSurveyInference`) and whose snapshots become volunteered responses with their
/// context, each in the zone it was lived in (`ReporterZoneInference`), each with what the file
/// said beyond Momentary's columns kept as it was (`ReporterKept`).
///
/// All or nothing: every file is read and checked before anything is stored, and everything is
/// stored in one transaction. Idempotent: a snapshot is stored under the key `reporter:<its id>`
/// (Reporter's `uniqueIdentifier`, or its time when it has none), and files whose snapshots are
/// already in the study add only the ones that are not, to the participant that has the others.
enum ReporterImporter {
    struct Summary: Equatable {
        var participantLabel: String
        var createdParticipant: Bool
        var files: Int
        var added: Int
        var alreadyThere: Int
        /// Answers Momentary cannot hold as answers, kept only as the file had them.
        var keptOnly: Int = 0
    }

    /// Why files cannot be imported: each problem names the file and, where known, the field.
    struct Refusal: Error, CustomStringConvertible {
        let problems: [String]
        var description: String { problems.joined(separator: "\n") }
    }

    static let keyPrefix = ReporterExporter.importedKeyPrefix

    static func idempotencyKey(_ snapshot: ReporterSnapshot) -> String {
        keyPrefix + (snapshot.uniqueIdentifier ?? snapshot.date.text)
    }

    /// Imports the folder or file at `path`.
    static func importFiles(at path: URL, into study: Study, on db: any Database, now: Date = Date()) async throws -> Summary {
        let files = try ReporterFiles.read(path)
        let reports = try ReporterFiles.reports(in: files)
        let studyZone = TimeZone(identifier: study.defaultTimeZone) ?? TimeZone(identifier: "UTC")!
        let plan = try ReporterImportPlan(reports: reports, files: files, fallback: studyZone)
        let keys = reports.map { idempotencyKey($0.snapshot) }
        let studyID = try study.requireID()
        return try await db.transaction { db in
            try await db.lockForWriting()
            var existing: [SurveyResponse] = []
            for chunk in keys.chunked(500) {
                existing += try await SurveyResponse.query(on: db).filter(\.$study.$id == studyID).filter(\.$idempotencyKey ~~ chunk).all()
            }
            let owners = Set(existing.map(\.$participant.id))
            guard owners.count <= 1 else {
                throw Refusal(problems: ["These files' reports are already in the study under \(owners.count) participants; import each person's files on their own."])
            }
            let (participant, created) = try await participant(
                owners.first, study: study, firstReport: reports.first?.snapshot.date.instant ?? now,
                zone: plan.entries.last?.zone ?? studyZone, on: db, now: now)
            let label = participant.label ?? ""
            let (survey, version) = try await survey(plan.document, participantLabel: label, study: study, on: db, now: now)
            let stored = Set(existing.map(\.idempotencyKey))
            var added = 0
            let documents = ParsedSurveyVersions()
            for entry in plan.entries where !stored.contains(idempotencyKey(entry.report.snapshot)) {
                try await ReporterRecording.record(entry, participant: participant, survey: survey, version: version, documents: documents, on: db, now: now)
                added += 1
            }
            return Summary(
                participantLabel: label, createdParticipant: created, files: files.count, added: added,
                alreadyThere: stored.count, keptOnly: plan.keptOnly)
        }
    }

    /// The participant that already has some of these reports, or a new one, who is never beeped
    /// (no push channel, not active, never planned), holds no secret any app knows, and lives in
    /// the zone of the latest report.
    private static func participant(
        _ existingID: UUID?, study: Study, firstReport: Date, zone: TimeZone, on db: any Database, now: Date
    ) async throws -> (Participant, Bool) {
        if let existingID, let participant = try await Participant.find(existingID, on: db) { return (participant, false) }
        let participant = try await ImportedParticipant.create(
            label: try await PublicCodes.label(forInvitationCode: nil, on: db), in: study, source: "Reporter import",
            registeredAt: firstReport, zone: zone, on: db, now: now)
        return (participant, true)
    }

    /// The participant's survey of Reporter questions, and the number of its version that asks
    /// `document` (a new version when the files ask questions the current one does not).
    private static func survey(
        _ document: SurveyDocument, participantLabel: String, study: Study, on db: any Database, now: Date
    ) async throws -> (Survey, Int) {
        let name = "Reporter questions of \(participantLabel)"
        let text = try SurveyStore.text(of: document)
        let survey: Survey
        if let existing = try await Survey.query(on: db).filter(\.$study.$id == study.requireID()).filter(\.$name == name).first() {
            survey = existing
            if try await SurveyCatalog.currentVersion(of: survey, on: db).document != text {
                _ = try await SurveyStore.saveVersion(of: survey, document: text, authorID: nil, on: db, now: now)
            }
        } else {
            survey = try await SurveyStore.add(
                kind: .esm, name: name, document: text, toStudy: try study.requireID(), authorID: nil, on: db, now: now)
        }
        return (survey, try await SurveyCatalog.currentVersion(of: survey, on: db).version)
    }
}

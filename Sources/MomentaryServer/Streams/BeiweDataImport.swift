import Fluent
import Foundation
import MomentaryCore

/// `momentary import beiwe-data`: a Beiwe data download stored as its patients' stream batches,
/// each file exactly as the phone had uploaded it (`BeiweDownloadCSV` takes the download's own
/// columns out) and checked by the same `StreamBatchValidator` as an upload. One never-beeped
/// participant per patient id, labelled with it.
///
/// Every file is checked before anything is stored; a problem refuses the whole import, or with
/// `skipBad` leaves just the bad files out. Each file is stored under a key made of its place in the
/// download (`BeiweDownloadFolder.File.idempotencyKey`), in its own transaction: an import run
/// again, or resumed after a failure, stores only what is not there yet.
enum BeiweDataImport {
    typealias Problem = BeiweDownloadFolder.Problem

    struct Summary {
        var createdParticipants: [String] = []
        var existingParticipants: [String] = []
        var storedFiles = 0
        var storedRows = 0
        var alreadyThere = 0
        /// With `skipBad`: the files left out.
        var skipped: [Problem] = []
        var notImported: [String] = []
    }

    /// Nothing was stored: every problem found, what would not have been imported anyway, and
    /// how many files passed their check (what `skipBad` would store).
    struct Refusal: Error {
        let problems: [Problem]
        let notImported: [String]
        var goodFiles = 0
    }

    /// How far the import has got: `checked` files, then `stored` ones, of `total`.
    struct Progress {
        let step: String
        let done: Int
        let total: Int
    }

    /// A file that passed its check, and what storing it needs to know.
    private struct Checked {
        let file: BeiweDownloadFolder.File
        let digest: String
        let rows: Int
        let isStored: Bool
    }

    static func run(
        _ root: URL, into study: Study, skipBad: Bool, blobs: BlobStore, on db: any Database, now: Date = Date(),
        progress: (Progress) -> Void = { _ in }
    ) async throws -> Summary {
        let folder: BeiweDownloadFolder
        do {
            folder = try BeiweDownloadFolder(root: root)
        } catch let problem as Problem {
            throw Refusal(problems: [problem], notImported: [])
        }
        var problems = folder.problems
        guard !folder.files.isEmpty || !problems.isEmpty else {
            throw Refusal(problems: [Problem(path: root.path, message: "holds no Beiwe stream files (<patient id>/<stream>/<YYYY-MM-DD HH_MM_SS+00_00>.csv).")],
                          notImported: folder.notImported)
        }
        let patients = try await participants(labelled: Set(folder.files.map(\.patientID)), in: study, on: db, problems: &problems)
        var checked: [Checked] = []
        for (position, file) in folder.files.enumerated() {
            progress(Progress(step: "checked", done: position, total: folder.files.count))
            guard let patient = patients[file.patientID] else { continue }
            do {
                let (csv, summary) = try phoneBatch(of: file)
                let digest = BlobStore.sha256(csv)
                let earlier = patient.stored[file.stream.rawValue + "\n" + file.idempotencyKey]
                if let earlier, earlier != digest {
                    throw Problem(path: file.path, message: "was imported before with other content; the stored file is kept.")
                }
                checked.append(Checked(file: file, digest: digest, rows: summary.rowCount, isStored: earlier != nil))
            } catch let problem as Problem {
                problems.append(problem)
            }
        }
        problems.sort { $0.path < $1.path }
        guard problems.isEmpty || skipBad else {
            throw Refusal(problems: problems, notImported: folder.notImported, goodFiles: checked.count)
        }

        var summary = Summary(skipped: problems, notImported: folder.notImported)
        var participantIDs: [String: UUID] = [:]
        for (position, item) in checked.enumerated() {
            progress(Progress(step: "stored", done: position, total: checked.count))
            let patientID = item.file.patientID
            if participantIDs[patientID] == nil {
                participantIDs[patientID] = try await participant(
                    patientID, existing: patients[patientID]?.participant, firstFile: checked, study: study, on: db, now: now, summary: &summary)
            }
            guard !item.isStored, let participantID = participantIDs[patientID] else {
                summary.alreadyThere += 1 // the participant exists whenever one of their files is stored
                continue
            }
            let (csv, batchSummary) = try phoneBatch(of: item.file)
            guard BlobStore.sha256(csv) == item.digest else {
                throw Problem(path: item.file.path, message: "changed while it was being imported; run the import again.")
            }
            _ = try await StreamBatchStore.save(
                .init(participantID: participantID, stream: item.file.stream, idempotencyKey: item.file.idempotencyKey, csv: csv,
                      summary: batchSummary, receivedAt: Date(timeIntervalSince1970: Double(item.file.seconds)), beiweSurveyID: item.file.surveyID),
                blobs: blobs, on: db)
            summary.storedFiles += 1
            summary.storedRows += item.rows
        }
        return summary
    }

    /// The file in the phone's format, checked as an upload is.
    static func phoneBatch(of file: BeiweDownloadFolder.File) throws(Problem) -> (Data, StreamBatchSummary) {
        let data: Data
        do {
            data = try Data(contentsOf: file.url)
        } catch {
            throw Problem(path: file.path, message: "cannot be read: \(error.localizedDescription)")
        }
        do {
            // survey_answers files are the phone's as it uploaded them.
            guard file.stream.hasTimestamps else { return (data, try StreamBatchValidator.validate(data, as: file.stream)) }
            guard let text = String(data: data, encoding: .utf8) else {
                throw Problem(path: file.path, message: "is not UTF-8 text.")
            }
            let csv = Data(try BeiweDownloadCSV.phoneCSV(fromDownload: text, stream: file.stream, surveyID: file.surveyID).utf8)
            return (csv, try StreamBatchValidator.validate(csv, as: file.stream))
        } catch let problem as StreamBatchProblem {
            throw Problem(path: file.path, line: problem.line, column: problem.column, message: problem.message)
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(path: file.path, message: "\(error)")
        }
    }

    /// A patient's participant, if the study has one, and the keys and digests of what was stored for them.
    private struct Patient {
        let participant: Participant?
        let stored: [String: String]
    }

    /// The patients whose files can be imported: those whose id is not another study's label.
    private static func participants(
        labelled ids: Set<String>, in study: Study, on db: any Database, problems: inout [Problem]
    ) async throws -> [String: Patient] {
        let studyID = try study.requireID()
        var found: [String: Participant] = [:]
        for chunk in Array(ids).chunked(1_000) {
            for participant in try await Participant.query(on: db).filter(\.$label ~~ chunk).all() {
                if let label = participant.label { found[label] = participant }
            }
        }
        var patients: [String: Patient] = [:]
        for id in ids.sorted() {
            guard let participant = found[id] else {
                patients[id] = Patient(participant: nil, stored: [:])
                continue
            }
            guard participant.$study.id == studyID else {
                problems.append(Problem(path: id, message: "the label \(id) already names a participant of another study; labels are unique on the server."))
                continue
            }
            let batches = try await StreamBatch.query(on: db).filter(\.$participant.$id == participant.requireID())
                .field(\.$stream).field(\.$idempotencyKey).field(\.$csvSHA256).all()
            patients[id] = Patient(
                participant: participant,
                stored: Dictionary(batches.map { ($0.stream + "\n" + $0.idempotencyKey, $0.csvSHA256) }) { first, _ in first })
        }
        return patients
    }

    /// The id of the patient's participant: the one the study has, or a new one registered at their first file.
    private static func participant(
        _ patientID: String, existing: Participant?, firstFile checked: [Checked], study: Study, on db: any Database, now: Date,
        summary: inout Summary
    ) async throws -> UUID {
        if let existing {
            summary.existingParticipants.append(patientID)
            return try existing.requireID()
        }
        let first = checked.filter { $0.file.patientID == patientID }.map(\.file.seconds).min() ?? Int(now.timeIntervalSince1970)
        let participant = try await ImportedParticipant.create(
            label: patientID, in: study, source: "Beiwe import", registeredAt: Date(timeIntervalSince1970: Double(first)), on: db, now: now)
        summary.createdParticipants.append(patientID)
        return try participant.requireID()
    }
}

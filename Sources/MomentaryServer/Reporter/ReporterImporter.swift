import Fluent
import Foundation
import MomentaryCore

/// Brings a Reporter user's history into a study: a folder of `YYYY-MM-DD-reporter-export.json`
/// files becomes one participant, whose questions become a survey (`ReporterSurveyInference`)
/// and whose snapshots become volunteered responses with their context.
///
/// All or nothing: every file is read and checked before anything is stored, and everything is
/// stored in one transaction. Idempotent: a snapshot is stored under the key `reporter:<its id>`
/// (Reporter's `uniqueIdentifier`, or its time when it has none), and a folder whose snapshots are
/// already in the study adds only the ones that are not, to the participant that has the others.
enum ReporterImporter {
    struct Summary: Equatable {
        var participantLabel: String
        var createdParticipant: Bool
        var files: Int
        var added: Int
        var alreadyThere: Int
    }

    /// Why a folder cannot be imported: each problem names the file and, where known, the field.
    struct Refusal: Error, CustomStringConvertible {
        let problems: [String]
        var description: String { problems.joined(separator: "\n") }
    }

    /// Reads every Reporter file in `folder` (other files are left alone), sorted by day.
    static func read(folder: URL) throws -> [(name: String, day: ReporterDay)] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw Refusal(problems: ["Cannot read the folder \(folder.path): \(error.localizedDescription)"])
        }
        let reporterNames = names.filter { ReporterDay.day(fromFileName: $0) != nil }.sorted()
        guard !reporterNames.isEmpty else {
            throw Refusal(problems: ["\(folder.path) holds no Reporter files (named YYYY-MM-DD-reporter-export.json)."])
        }
        var days: [(String, ReporterDay)] = []
        var problems: [String] = []
        for name in reporterNames {
            do {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                days.append((name, try ReporterDay.decode(data, fileName: name)))
            } catch let error as ReporterFormatError {
                problems.append(error.description)
            } catch {
                problems.append("\(name): cannot be read: \(error.localizedDescription)")
            }
        }
        guard problems.isEmpty else { throw Refusal(problems: problems) }
        return days
    }

    static func importFolder(_ folder: URL, into study: Study, on db: any Database, now: Date = Date()) async throws -> Summary {
        let files = try read(folder: folder)
        let days = files.map(\.day)
        let inference: ReporterSurveyInference
        do {
            inference = try ReporterSurveyInference(days: days)
        } catch {
            throw Refusal(problems: [error.description])
        }
        let snapshots = days.flatMap(\.snapshots)
        let keys = snapshots.map(idempotencyKey)
        if let repeated = Dictionary(grouping: keys, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw Refusal(problems: ["Two reports share the identifier “\(repeated.dropFirst(keyPrefix.count))”; each report must be one of a kind."])
        }
        let studyID = try study.requireID()
        return try await db.transaction { db in
            let existing = try await SurveyResponse.query(on: db)
                .filter(\.$study.$id == studyID).filter(\.$idempotencyKey ~~ keys).all()
            let owners = Set(existing.map(\.$participant.id))
            guard owners.count <= 1 else {
                throw Refusal(problems: ["These files' reports are already in the study under \(owners.count) participants; import each person's files on their own."])
            }
            let (participant, created) = try await participant(owners.first, study: study, firstReport: snapshots.first?.date.instant ?? now, on: db, now: now)
            let label = participant.label ?? ""
            let (survey, version) = try await survey(inference.document, participantLabel: label, study: study, on: db, now: now)
            let stored = Set(existing.map(\.idempotencyKey))
            var added = 0
            for snapshot in snapshots where !stored.contains(idempotencyKey(snapshot)) {
                try await record(
                    snapshot, participant: participant, survey: survey, version: version, inference: inference, on: db, now: now)
                added += 1
            }
            return Summary(
                participantLabel: label, createdParticipant: created, files: files.count, added: added, alreadyThere: stored.count)
        }
    }

    static let keyPrefix = ReporterExporter.importedKeyPrefix

    static func idempotencyKey(_ snapshot: ReporterSnapshot) -> String {
        keyPrefix + (snapshot.uniqueIdentifier ?? snapshot.date.text)
    }

    /// The participant that already has some of these reports, or a new one, who is never beeped
    /// (no push channel, not active, never planned) and holds no secret any app knows.
    private static func participant(
        _ existingID: UUID?, study: Study, firstReport: Date, on db: any Database, now: Date
    ) async throws -> (Participant, Bool) {
        if let existingID, let participant = try await Participant.find(existingID, on: db) { return (participant, false) }
        let zone = TimeZone(identifier: study.defaultTimeZone) ?? TimeZone(identifier: "UTC")!
        let participant = Participant()
        participant.$study.id = try study.requireID()
        participant.label = try await PublicCodes.label(forInvitationCode: nil, on: db)
        participant.secretHash = ParticipantSecret.hash(ParticipantSecret.generate())
        participant.status = .participating
        participant.active = false
        participant.timeZone = zone.identifier
        participant.beepsPerDay = 2
        participant.signalStartMinutes = 8 * 60
        participant.signalEndMinutes = 22 * 60
        participant.pushChannel = "none"
        participant.appVersion = "Reporter import"
        participant.registeredAt = min(firstReport, now)
        participant.registeredLocalDate = WallClock.localDate(of: participant.registeredAt, in: zone).description
        participant.updatedAt = now
        try await participant.create(on: db)
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

    private static func record(
        _ snapshot: ReporterSnapshot, participant: Participant, survey: Survey, version: Int,
        inference: ReporterSurveyInference, on db: any Database, now: Date
    ) async throws {
        let document = inference.document
        var submitted: [SubmittedAnswer] = []
        for response in snapshot.responses {
            guard let id = inference.questionIDs[response.questionPrompt], let question = document.question(withID: id),
                  let value = ReporterAnswerMapping.answerValue(response.answer, for: question)
            else { continue }
            submitted.append(SubmittedAnswer(questionID: id, answer: value))
        }
        let answers = try AnswerValidator.validate(submitted, against: document)
        let draft = ResponseRecorder.Draft(
            participantID: try participant.requireID(), studyID: participant.$study.id, surveyID: try survey.requireID(),
            surveyVersion: version, kind: .esm, beepID: nil, volunteered: true, idempotencyKey: idempotencyKey(snapshot),
            startedAt: snapshot.date.instant, submittedAt: snapshot.date.instant, receivedAt: now, delaySeconds: nil,
            timeZone: participant.timeZone)
        let context = MomentaryCore.ResponseContext(
            location: snapshot.location?.fix,
            sound: snapshot.audio.map { SoundLevel(averageDB: $0.avg, peakDB: $0.peak) },
            battery: snapshot.battery, connection: snapshot.connection, steps: snapshot.steps, impetus: snapshot.reportImpetus)
        let response = try await ResponseRecorder.record(draft, answers: answers, context: context, on: db)
        // Where Reporter knew the place and weather, they join the context row just written.
        let placemark = snapshot.location?.placemark
        if placemark?["name"] != nil || placemark?["country"] != nil || snapshot.weather != nil,
           let row = try await SurveyResponseContext.query(on: db).filter(\.$response.$id == response.requireID()).first() {
            row.placeText = placemark?["name"]
            row.country = placemark?["country"]
            row.weather = snapshot.weather.map { AnswerRenderer.jsonText(.object($0)) }
            try await row.save(on: db)
        }
    }
}

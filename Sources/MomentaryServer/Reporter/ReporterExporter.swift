import Fluent
import Foundation
import MomentaryCore

/// A participant's responses as Reporter's daily files (seed 002), one per local day of the
/// participant's zone: each response a snapshot with its context (battery, connection, steps,
/// sound, location with place and country, weather, report impetus) and its answers in Reporter's
/// shapes (`ReporterAnswerMapping`). A response's photos are copied beside the files
/// (`photos/<id>.jpg`) and listed in its `photoSet`, one object per photo naming that file (the
/// server strips EXIF on upload, so there is none to give). Reporter has no place for audio
/// recordings or for Momentary's beep links and timings, so those are not written.
enum ReporterExporter {
    /// Responses read at once: bounds memory for participants with years of answers.
    static let pageSize = 500
    /// Idempotency keys of responses imported from Reporter start with this, followed by
    /// Reporter's own identifier of the snapshot, which export writes back.
    static let importedKeyPrefix = "reporter:"

    struct Summary: Equatable {
        var files = 0
        var snapshots = 0
        var photos = 0
    }

    /// Where a photo is copied to, relative to the export's folder.
    static func photoPath(_ photoID: UUID) -> String { "photos/\(photoID.uuidString.lowercased()).jpg" }

    /// Writes the files into `directory` (created if missing), each whole or not at all, and copies
    /// the photos their snapshots list from `blobs`.
    static func export(participant: Participant, to directory: URL, blobs: BlobStore, on db: any Database) async throws -> Summary {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var summary = Summary()
        try await days(of: participant, on: db, copyingPhotosTo: directory, from: blobs) { day, file in
            try file.encoded().write(to: directory.appendingPathComponent(ReporterDay.fileName(for: day)), options: .atomic)
            summary.files += 1
            summary.snapshots += file.snapshots.count
            summary.photos += file.snapshots.reduce(0) { $0 + ($1.photoSet?.photos.count ?? 0) }
        }
        return summary
    }

    /// Calls `body` once per local day with a response, in order, with that day's snapshots; the
    /// photos they list are copied into `directory` as they are listed.
    static func days(
        of participant: Participant, on db: any Database, copyingPhotosTo directory: URL, from blobs: BlobStore,
        _ body: (LocalDate, ReporterDay) async throws -> Void
    ) async throws {
        let participantZone = TimeZone(identifier: participant.timeZone) ?? TimeZone(identifier: "UTC")!
        let documents = ParsedSurveyVersions()
        var current: (day: LocalDate, file: ReporterDay)?
        var after: (startedAt: Date, id: UUID)?
        let participantID = try participant.requireID()
        while true {
            var query = SurveyResponse.query(on: db).filter(\.$participant.$id == participantID)
            if let after {
                query = query.group(.or) { or in
                    or.filter(\.$startedAt > after.startedAt)
                    or.group(.and) { and in and.filter(\.$startedAt == after.startedAt).filter(\.$id > after.id) }
                }
            }
            let page = try await query.sort(\.$startedAt).sort(\.$id).limit(pageSize).all()
            guard let last = page.last else { break }
            after = (last.startedAt, try last.requireID())
            let ids = try page.map { try $0.requireID() }
            let answers = Dictionary(grouping: try await Answer.query(on: db).filter(\.$response.$id ~~ ids).sort(\.$position).all(), by: \.$response.id)
            let photos = Dictionary(grouping: try await Blob.query(on: db).filter(\.$kind == .photo).filter(\.$response.$id ~~ ids)
                .sort(\.$createdAt).all(), by: { $0.$response.id })
            let contexts = Dictionary(
                try await SurveyResponseContext.query(on: db).filter(\.$response.$id ~~ ids).all().map { ($0.$response.id, $0) },
                uniquingKeysWith: { first, _ in first })
            for response in page {
                let id = try response.requireID()
                // Each response in the zone it was given in, so a move does not shift earlier days.
                let zone = response.timeZone.flatMap(TimeZone.init(identifier:)) ?? participantZone
                let document = try await documents.entry(surveyID: response.$survey.id, version: response.surveyVersion, on: db)?.document
                var snapshot = snapshot(response, answers: answers[id] ?? [], context: contexts[id], document: document, zone: zone)
                let taken = photos[id] ?? []
                for photo in taken {
                    let target = directory.appendingPathComponent(photoPath(try photo.requireID()))
                    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try blobs.read(photo.storagePath).write(to: target, options: .atomic)
                }
                if !taken.isEmpty {
                    snapshot.photoSet = ReporterPhotoSet(photos: try taken.map { photo in
                        .object([
                            "uniqueIdentifier": .string(try photo.requireID().uuidString), "file": .string(photoPath(try photo.requireID())),
                            "byteCount": .number(Double(photo.byteCount)), "public": .bool(photo.isPublic),
                        ])
                    })
                }
                // A westward move can give a later answer an earlier local date: it joins the open
                // day's file rather than writing that earlier day's file a second time.
                let given = WallClock.localDate(of: response.startedAt, in: zone)
                let day = current.map { max(given, $0.day) } ?? given
                if let open = current, open.day != day {
                    try await body(open.day, open.file)
                    current = nil
                }
                current = (day, ReporterDay(snapshots: (current?.file.snapshots ?? []) + [snapshot]))
            }
        }
        if let open = current { try await body(open.day, open.file) }
    }

    static func snapshot(
        _ response: SurveyResponse, answers: [Answer], context: SurveyResponseContext?, document: SurveyDocument?, zone: TimeZone
    ) -> ReporterSnapshot {
        let key = response.idempotencyKey
        var snapshot = ReporterSnapshot(
            date: ReporterDate(response.startedAt, in: zone),
            uniqueIdentifier: key.hasPrefix(importedKeyPrefix) ? String(key.dropFirst(importedKeyPrefix.count)) : response.id?.uuidString)
        if let context {
            snapshot.reportImpetus = context.impetus.flatMap(ReportImpetus.init(rawValue:))
            snapshot.battery = context.battery
            snapshot.connection = context.connection.flatMap(ConnectionKind.init(rawValue:))
            snapshot.steps = context.steps
            if let average = context.soundAverageDB, let peak = context.soundPeakDB {
                snapshot.audio = ReporterAudio(avg: average, peak: peak)
            }
            if let latitude = context.latitude, let longitude = context.longitude {
                var placemark: [String: String] = [:]
                placemark["name"] = context.placeText
                placemark["country"] = context.country
                snapshot.location = ReporterLocation(
                    latitude: latitude, longitude: longitude, altitude: context.altitude,
                    horizontalAccuracy: context.horizontalAccuracy, verticalAccuracy: context.verticalAccuracy,
                    timestamp: context.locatedAt ?? response.startedAt, placemark: placemark.isEmpty ? nil : placemark)
            }
            snapshot.weather = context.weather.flatMap(jsonObject)
        }
        guard let document else { return snapshot }
        snapshot.responses = answers.compactMap { answer in
            guard answer.status == "answered", let text = answer.value, let question = document.question(withID: answer.questionID),
                  let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)),
                  let shaped = ReporterAnswerMapping.reporterAnswer(for: question, value: value, answeredAt: response.submittedAt)
            else { return nil }
            return ReporterResponse(questionPrompt: question.text.text, answer: shaped)
        }
        return snapshot
    }

    private static func jsonObject(_ text: String) -> [String: JSONValue]? {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))?.objectValue
    }
}

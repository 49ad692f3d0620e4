import Fluent
import Foundation
import MomentaryCore

/// A participant's responses in the order they were started, a page at a time.
struct ReporterResponsePages {
    let participantID: UUID
    private var after: (startedAt: Date, id: UUID)?
    private let documents = ParsedSurveyVersions()

    init(participantID: UUID) {
        self.participantID = participantID
    }

    mutating func next(on db: any Database) async throws -> ReporterResponsePage? {
        var query = SurveyResponse.query(on: db).filter(\.$participant.$id == participantID)
        if let after {
            query = query.group(.or) { or in
                or.filter(\.$startedAt > after.startedAt)
                or.group(.and) { and in and.filter(\.$startedAt == after.startedAt).filter(\.$id > after.id) }
            }
        }
        let page = try await query.sort(\.$startedAt).sort(\.$id).limit(ReporterExporter.pageSize).all()
        guard let last = page.last else { return nil }
        after = (last.startedAt, try last.requireID())
        return try await ReporterResponsePage.load(page, documents: documents, on: db)
    }
}

/// Responses with their answers, context and photos: what writing them as Reporter snapshots needs.
struct ReporterResponsePage {
    let responses: [SurveyResponse]
    private let answers: [UUID: [Answer]]
    private let photos: [UUID?: [Blob]]
    private let contexts: [UUID: SurveyResponseContext]
    private let documents: ParsedSurveyVersions

    static func load(_ responses: [SurveyResponse], documents: ParsedSurveyVersions, on db: any Database) async throws -> ReporterResponsePage {
        let ids = try responses.map { try $0.requireID() }
        let answers = Dictionary(grouping: try await Answer.query(on: db).filter(\.$response.$id ~~ ids).sort(\.$position).all(), by: \.$response.id)
        let photos = Dictionary(grouping: try await Blob.query(on: db).filter(\.$kind == .photo).filter(\.$response.$id ~~ ids)
            .sort(\.$createdAt).all(), by: { $0.$response.id })
        let contexts = Dictionary(
            try await SurveyResponseContext.query(on: db).filter(\.$response.$id ~~ ids).all().map { ($0.$response.id, $0) },
            uniquingKeysWith: { first, _ in first })
        return ReporterResponsePage(responses: responses, answers: answers, photos: photos, contexts: contexts, documents: documents)
    }

    /// The snapshot Momentary writes of `response` from its columns, times at `zone`. Its photos
    /// are copied into `directory` from `blobs` when one is given, and listed in its `photoSet`.
    func written(
        _ response: SurveyResponse, zone: TimeZone, copyingPhotosTo directory: URL?, from blobs: BlobStore?, on db: any Database
    ) async throws -> ReporterWrittenSnapshot {
        let id = try response.requireID()
        let key = response.idempotencyKey
        let prefix = ReporterExporter.importedKeyPrefix
        var snapshot = ReporterSnapshot(
            date: ReporterDate(response.startedAt, in: zone),
            uniqueIdentifier: key.hasPrefix(prefix) ? String(key.dropFirst(prefix.count)) : id.uuidString)
        if let context = contexts[id] { Self.describe(context, in: &snapshot, startedAt: response.startedAt, zone: zone) }
        if let directory, let blobs, let taken = photos[id], !taken.isEmpty {
            snapshot.photoSet = ReporterPhotoSet(photos: try taken.map { photo in
                let path = ReporterExporter.photoPath(try photo.requireID())
                let target = directory.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try blobs.read(photo.storagePath).write(to: target, options: .atomic)
                return .object([
                    "uniqueIdentifier": .string(try photo.requireID().uuidString), "file": .string(path),
                    "byteCount": .number(Double(photo.byteCount)), "public": .bool(photo.isPublic),
                ])
            })
        }
        var members = try Self.json(snapshot).objectValue ?? [:]
        members.removeValue(forKey: ReporterKept.responsesKey)
        let document = try await documents.entry(surveyID: response.$survey.id, version: response.surveyVersion, on: db)?.document
        let answeredAt = ReporterDate(response.submittedAt, in: zone)
        var written: [(question: String, json: JSONValue)] = []
        for answer in answers[id] ?? [] {
            guard let question = document?.question(withID: answer.questionID),
                  let shaped = Self.reporterResponse(answer, question: question, answeredAt: answeredAt) else { continue }
            written.append((answer.questionID, try Self.json(shaped)))
        }
        return ReporterWrittenSnapshot(members: members, responses: written, copiedPhotos: snapshot.photoSet?.photos.count ?? 0)
    }

    /// An answer in Reporter's shape; a skipped question as its prompt alone, as Reporter writes
    /// it. Nil for a question not shown, and for photos and recordings, which Reporter has no shape for.
    private static func reporterResponse(_ answer: Answer, question: SurveyQuestion, answeredAt: ReporterDate) -> ReporterResponse? {
        switch (answer.status, question.kind) {
        case (_, .photo), (_, .audioRecording), (_, .infoTextBox): return nil
        case (AnswerStatus.noAnswerSelectedMarker, _): return ReporterResponse(questionPrompt: question.text.text, answer: nil)
        case ("answered", _):
            guard let text = answer.value, let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)),
                  let shaped = ReporterAnswerMapping.reporterAnswer(for: question, value: value, answeredAt: answeredAt)
            else { return nil }
            return ReporterResponse(questionPrompt: question.text.text, answer: shaped)
        default: return nil
        }
    }

    private static func describe(_ context: SurveyResponseContext, in snapshot: inout ReporterSnapshot, startedAt: Date, zone: TimeZone) {
        snapshot.reportImpetus = context.impetus.flatMap(ReportImpetus.init(rawValue:))
        snapshot.battery = context.battery
        snapshot.connection = context.connection.flatMap(ConnectionKind.init(rawValue:))
        snapshot.steps = context.steps
        if let average = context.soundAverageDB, let peak = context.soundPeakDB {
            snapshot.audio = ReporterAudio(avg: average, peak: peak)
        }
        if let latitude = context.latitude, let longitude = context.longitude {
            var placemark: [String: JSONValue] = [:]
            placemark["name"] = context.placeText.map(JSONValue.string)
            placemark["country"] = context.country.map(JSONValue.string)
            snapshot.location = ReporterLocation(
                latitude: latitude, longitude: longitude, altitude: context.altitude,
                horizontalAccuracy: context.horizontalAccuracy, verticalAccuracy: context.verticalAccuracy,
                timestamp: ReporterDate(context.locatedAt ?? startedAt, in: zone), placemark: placemark.isEmpty ? nil : placemark)
        }
        snapshot.weather = context.weather.flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }?.objectValue
    }

    /// A value as JSON, to compare with and patch what a file said.
    static func json(_ value: some Encodable) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }
}

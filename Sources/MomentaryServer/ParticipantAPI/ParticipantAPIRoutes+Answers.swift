import Fluent
import MomentaryCore
import Vapor

/// Handlers of surveys and what participants send: answers, photos, sensor streams, ignored beeps.
extension ParticipantAPIRoutes {
    func beepSurvey(_ request: Request) async throws -> Response {
        let participant = try request.activeParticipantIdentity()
        let beepID = try Self.uuidParameter("id", of: request)
        // Fetched ahead by the service worker when the push arrives: not yet opened by anyone.
        let prefetch = try Self.booleanQuery("prefetch", of: request) ?? false
        let beep = try await BeepOpening.open(
            beepID, of: participant.id, studyID: participant.studyID, marking: !prefetch, on: request.db, now: timeSource.now())
        let survey = try await SurveyCatalog.survey(for: beep, studyID: participant.studyID, on: request.db)
        let language = try await TextLanguage.of(participant: participant.id, on: request.db)
        var delivery = try await SurveyCatalog.delivery(of: survey, beepID: beepID, in: language, for: participant.id, on: request.db)
        delivery.expiresAt = beep.status == .sent ? beep.expiresAt : nil
        return try WireBody.response(delivery)
    }

    func volunteerSurvey(_ request: Request) async throws -> Response {
        let participant = try request.activeParticipantIdentity()
        guard let survey = try await SurveyCatalog.volunteerSurvey(of: participant.id, studyID: participant.studyID, on: request.db) else {
            throw APIError.notFound("Your study has no survey to answer.")
        }
        let language = try await TextLanguage.of(participant: participant.id, on: request.db)
        return try WireBody.response(try await SurveyCatalog.delivery(of: survey, beepID: nil, in: language, for: participant.id, on: request.db))
    }

    func submitResponse(_ request: Request) async throws -> Response {
        let identity = try ParticipantAuthenticator.participant(of: request)
        let submission = try WireBody.decode(ResponseSubmission.self, from: request)
        let participant: AuthenticatedParticipant
        do {
            participant = try identity.requireActive()
        } catch {
            // An answer stored before the participant left gets its receipt: a phone that was
            // offline must not give up on data that is safe.
            let statements = SQLKitStatementRunner(request.db.sql)
            if let stored = try await ResponseRows.storedReceipt(participantID: identity.id, key: submission.idempotencyKey, on: statements) {
                return try WireBody.response(stored, status: .ok)
            }
            throw error
        }
        let outcome = try await ResponseIntake.submit(
            submission, from: participant, lookup: try ParticipantAuthenticator.uploadLookup(of: request),
            ingest: request.application.ingestResources, on: request.db, now: timeSource.now())
        return try WireBody.response(outcome.receipt, status: outcome.created ? .created : .ok)
    }

    func uploadPhoto(_ request: Request) async throws -> Response {
        let participant = try request.activeParticipantIdentity()
        let responseID = try Self.uuidParameter("id", of: request)
        guard request.headers.contentType == .jpeg else {
            throw APIError(.unsupportedMediaType, "Send the photo as the request body with Content-Type: image/jpeg.")
        }
        let isPublic = try Self.booleanQuery(APIRoute.photoPublicQueryName, of: request) ?? false
        let data = request.body.data.map { Data(buffer: $0) } ?? Data()
        let outcome = try await PhotoService.store(
            data, isPublic: isPublic, responseID: responseID, participantID: participant.id,
            blobs: blobs, on: request.db, now: timeSource.now())
        return try WireBody.response(outcome.receipt, status: outcome.created ? .created : .ok)
    }

    func uploadStream(_ request: Request) async throws -> Response {
        let participant = try request.activeParticipantIdentity()
        let name = request.parameters.get("stream") ?? ""
        guard let stream = PassiveStream(rawValue: name) else {
            throw APIError.notFound("There is no stream “\(name)”; the streams are \(PassiveStream.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard request.headers.contentType.map({ $0.type == "text" && $0.subType == "csv" }) == true else {
            throw APIError(.unsupportedMediaType, "Send the batch as the request body with Content-Type: text/csv.")
        }
        let encoding = request.headers.first(name: .contentEncoding)?.lowercased() ?? "identity"
        guard ["gzip", "identity"].contains(encoding) else {
            throw APIError(.unsupportedMediaType, "Content-Encoding may be gzip or left out, not \(encoding).")
        }
        let upload = StreamUploadService.Upload(
            stream: stream, idempotencyKey: request.headers.first(name: APIRoute.idempotencyKeyHeader),
            body: request.body.data.map { Data(buffer: $0) } ?? Data(), gzipped: encoding == "gzip")
        let outcome = try await StreamUploadService.store(
            upload, from: participant.id, limits: streamLimits, blobs: blobs, on: request.db, now: timeSource.now())
        return try WireBody.response(outcome.receipt, status: outcome.created ? .created : .ok)
    }

    func reportIgnored(_ request: Request) async throws -> Response {
        let participant = try await request.activeParticipant()
        try await BeepReportService.reportIgnored(try Self.uuidParameter("id", of: request), by: participant, on: request.db, now: timeSource.now())
        return Response(status: .noContent)
    }
}

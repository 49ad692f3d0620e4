import Fluent
import MomentaryCore
import Vapor

/// The participant API (`/api/v1`), registered from the typed route list in MomentaryCore. Each
/// handler only reads the request and calls a service: no business rule lives here.
struct ParticipantAPIRoutes: RouteCollection {
    let timeSource: any TimeSource
    let blobs: BlobStore
    /// Registrations per client address: enough for a class enrolling together behind one network,
    /// not for a script filling a study with fake participants.
    let registrations = RequestRateLimiter(limit: registrationLimit, window: registrationWindow)
    /// Registrations per study from all addresses together (`MOMENTARY_STUDY_REGISTRATION_LIMIT`),
    /// so many addresses cannot fill a study with fake participants either.
    let studyRegistrations: RequestRateLimiter
    let streamLimits: StreamUploadLimits

    /// Invitation checks per client address: plenty for mistyping a code, far too few to guess one.
    let invitationChecks = RequestRateLimiter(limit: invitationCheckLimit, window: registrationWindow)
    static let invitationCheckLimit = 30

    static let registrationLimit = 100
    static let registrationWindow: TimeInterval = 10 * 60

    init(
        timeSource: any TimeSource, blobs: BlobStore, registrationsPerStudy: Int = Configuration.defaultStudyRegistrationLimit,
        streamLimits: StreamUploadLimits = .standard
    ) {
        self.timeSource = timeSource
        self.blobs = blobs
        self.streamLimits = streamLimits
        studyRegistrations = RequestRateLimiter(limit: registrationsPerStudy, window: Self.registrationWindow)
    }

    func boot(routes: any RoutesBuilder) throws {
        let open = routes
        let authenticated = routes.grouped(ParticipantAuthenticator(timeSource: timeSource))
        let uploadingAnswers = routes.grouped(ParticipantAuthenticator(timeSource: timeSource, readsUploadLookup: true))

        register(.register, on: open) { [registrations, studyRegistrations] request in
            func tooMany(_ key: String) -> APIError {
                var error = APIError(.tooManyRequests, words: key)
                error.headers.replaceOrAdd(name: "Retry-After", value: String(Int(Self.registrationWindow)))
                return error
            }
            guard await registrations.allow(ClientAddress.of(request), now: timeSource.now()) else {
                throw tooMany("api_error.registrations_network")
            }
            var body = try WireBody.decode(RegistrationRequest.self, from: request)
            // The key may come as the header passive uploads use, or in the body as responses carry it.
            if let header = request.headers.first(name: APIRoute.idempotencyKeyHeader) {
                guard body.idempotencyKey == nil || body.idempotencyKey == header else {
                    throw APIError(.badRequest, "The \(APIRoute.idempotencyKeyHeader) header and idempotency_key differ; send one key.", field: "idempotency_key")
                }
                body.idempotencyKey = header
            }
            // Only registrations that succeed count against the study, so refused requests cannot use up its budget.
            guard await !studyRegistrations.isLimited(body.study, now: timeSource.now()) else {
                throw tooMany("api_error.registrations_study")
            }
            let response = try await RegistrationService.register(body, on: request.db, now: timeSource.now())
            _ = await studyRegistrations.allow(body.study, now: timeSource.now())
            return try WireBody.response(response, status: .created)
        }
        register(.studyInfo, on: open) { request in
            let slug = request.parameters.get("slug") ?? ""
            return try WireBody.response(try await StudyInfoService.info(slug: slug, preferences: try Self.preferredLanguages(of: request), on: request.db))
        }
        register(.checkInvitation, on: open) { [invitationChecks] request in
            guard await invitationChecks.allow(ClientAddress.of(request), now: timeSource.now()) else {
                var error = APIError(.tooManyRequests, words: "api_error.invitation_checks")
                error.headers.replaceOrAdd(name: "Retry-After", value: String(Int(Self.registrationWindow)))
                throw error
            }
            let slug = request.parameters.get("slug") ?? ""
            guard let study = try await Study.query(on: request.db).filter(\.$slug == slug).first() else {
                throw APIError(.studyNotFound, "There is no study “\(slug.prefix(40))”.")
            }
            let code = request.parameters.get("code") ?? ""
            guard !code.isEmpty, code.count <= 64 else {
                throw APIError.invalid("The invitation code must be 1–64 characters.", field: "invitation_code")
            }
            _ = try await RegistrationService.usableInvitee(code, study: study, on: request.db)
            return Response(status: .noContent)
        }
        register(.webPushKey, on: open) { request in
            guard let key = request.application.webPushPublicKey else {
                throw APIError.notFound("Web Push is not configured on this server, so the app cannot receive notifications.")
            }
            return try WireBody.response(WebPushKey(publicKey: key))
        }
        register(.publicStatistics, on: open) { request in try await PublicStatisticsRoutes.json(request) }
        register(.status, on: authenticated) { request in
            let participant = try await request.participantModel()
            return try WireBody.response(try await ParticipantStatusService.status(of: participant, on: request.db, now: timeSource.now()))
        }
        register(.updateSettings, on: authenticated) { request in
            let participant = try await request.activeParticipant()
            let update = try WireBody.decode(SettingsUpdate.self, from: request)
            try await ParticipantSettingsService.updateSettings(update, of: participant, on: request.db, now: timeSource.now())
            return try WireBody.response(participant.signallingSettings)
        }
        register(.updatePushToken, on: authenticated) { request in
            let participant = try await request.activeParticipant()
            let push = try WireBody.decode(PushRegistration.self, from: request)
            try await ParticipantSettingsService.updatePush(push, of: participant, on: request.db, now: timeSource.now())
            return Response(status: .noContent)
        }
        register(.beepSurvey, on: authenticated) { request in
            let participant = try request.activeParticipantIdentity()
            let beepID = try Self.uuidParameter("id", of: request)
            // Fetched ahead by the service worker when the push arrives: not yet opened by anyone.
            let prefetch = try Self.booleanQuery("prefetch", of: request) ?? false
            let beep = try await BeepOpening.open(
                beepID, of: participant.id, studyID: participant.studyID, marking: !prefetch, on: request.db, now: timeSource.now())
            let survey = try await Self.survey(for: beep, studyID: participant.studyID, on: request.db)
            let language = try await TextLanguage.of(participant: participant.id, on: request.db)
            var delivery = try await SurveyCatalog.delivery(of: survey, beepID: beepID, in: language, on: request.db)
            delivery.expiresAt = beep.status == .sent ? beep.expiresAt : nil
            return try WireBody.response(delivery)
        }
        register(.volunteerSurvey, on: authenticated) { request in
            let participant = try request.activeParticipantIdentity()
            guard let survey = try await SurveyCatalog.defaultExperienceSurvey(of: participant.studyID, on: request.db) else {
                throw APIError.notFound("Your study has no survey to answer.")
            }
            let language = try await TextLanguage.of(participant: participant.id, on: request.db)
            return try WireBody.response(try await SurveyCatalog.delivery(of: survey, beepID: nil, in: language, on: request.db))
        }
        // Room for the most a response may carry (5,000 timing events with their answers on screen).
        register(.submitResponse, on: uploadingAnswers, maxBodySize: ByteCount(value: ResponseSubmission.maximumBodyBytes)) { request in
            let identity = try ParticipantAuthenticator.participant(of: request)
            let submission = try WireBody.decode(ResponseSubmission.self, from: request)
            let participant: AuthenticatedParticipant
            do {
                participant = try identity.requireActive()
            } catch {
                // An answer stored before the participant left gets its receipt: a phone that was
                // offline must not give up on data that is safe.
                let statements = SQLKitStatements(request.db.sql)
                if let stored = try await ResponseIngestService.storedReceipt(participantID: identity.id, key: submission.idempotencyKey, on: statements) {
                    return try WireBody.response(stored, status: .ok)
                }
                throw error
            }
            let outcome = try await ResponseIngestService.submit(
                submission, from: participant, lookup: try ParticipantAuthenticator.uploadLookup(of: request),
                ingest: request.application.responseIngest, on: request.db, now: timeSource.now())
            return try WireBody.response(outcome.receipt, status: outcome.created ? .created : .ok)
        }
        register(.uploadPhoto, on: authenticated, maxBodySize: ByteCount(value: PhotoService.maximumBytes)) { request in
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
        register(.uploadStream, on: authenticated, maxBodySize: ByteCount(value: streamLimits.batchBytes)) { [streamLimits] request in
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
        register(.reportIgnored, on: authenticated) { request in
            let participant = try await request.activeParticipant()
            try await BeepReportService.reportIgnored(try Self.uuidParameter("id", of: request), by: participant, on: request.db, now: timeSource.now())
            return Response(status: .noContent)
        }
        register(.feedback, on: authenticated) { request in
            let participant = try await request.participantModel()
            let summary = try await FeedbackService.summary(for: participant, on: request.db)
            guard request.headers.prefersHTML else { return try WireBody.response(summary) }
            let language = participant.language
            let page = ParticipantPage.document(
                title: AppCatalogues.text("title.my_happiness", language: language), language: language,
                body: FeedbackCharts.section(summary, language: language, heading: "feedback.your_averages"))
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .contentType, value: "text/html; charset=utf-8")
            headers.replaceOrAdd(name: .cacheControl, value: "no-store")
            return Response(status: .ok, headers: headers, body: .init(string: page))
        }
        register(.enableDataDownload, on: authenticated) { request in
            let participant = try await request.activeParticipant()
            let code = try await DataDownloadService.enable(for: participant, on: request.db, now: timeSource.now())
            let url = DataDownloadService.url(code: code, on: request)
            return try WireBody.response(DataDownloadLink(url: url, code: code), status: .created)
        }
        register(.disableDataDownload, on: authenticated) { request in
            let participant = try await request.participantModel()
            try await DataDownloadService.disable(for: participant, on: request.db, now: timeSource.now())
            return Response(status: .noContent)
        }
        register(.withdraw, on: authenticated) { request in
            let participant = try await request.activeParticipant()
            let body = try WireBody.decodeIfPresent(WithdrawRequest.self, from: request) ?? WithdrawRequest()
            try await ParticipantSettingsService.withdraw(participant, deleteData: body.deleteData, blobs: blobs, on: request.db, now: timeSource.now())
            return Response(status: .noContent)
        }
    }

    private func register(
        _ route: APIRoute, on builder: any RoutesBuilder, maxBodySize: ByteCount? = nil,
        _ handler: @escaping @Sendable (Request) async throws -> Response
    ) {
        let path = route.pathTemplate.pathComponents
        let body: HTTPBodyStreamStrategy = maxBodySize.map { .collect(maxSize: $0) } ?? .collect
        builder.on(HTTPMethod(rawValue: route.method.rawValue), path, body: body, use: handler)
    }

    private static func uuidParameter(_ name: String, of request: Request) throws -> UUID {
        guard let text = request.parameters.get(name), let id = UUID(uuidString: text) else {
            throw APIError.notFound("“\(request.parameters.get(name) ?? "")” is not an id.")
        }
        return id
    }

    private static func booleanQuery(_ name: String, of request: Request) throws -> Bool? {
        guard let text = request.query[String.self, at: name] else { return nil }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw APIError.badRequest("The query parameter “\(name)” must be true or false.")
        }
    }

    private static func survey(for beep: Beep, studyID: UUID, on db: any Database) async throws -> Survey {
        if let surveyID = beep.$survey.id, let survey = try await Survey.find(surveyID, on: db) {
            return survey
        }
        guard let survey = try await SurveyCatalog.defaultExperienceSurvey(of: studyID, on: db) else {
            throw APIError.notFound("Your study has no survey to answer.")
        }
        return survey
    }

    /// The languages a request asks for, most preferred first: `?lang=` if given, else `Accept-Language`.
    static func preferredLanguages(of request: Request) throws -> [String] {
        if let tag = try? request.query.get(String.self, at: "lang") {
            guard LanguageTag.isWellFormed(tag) else {
                throw APIError(.badRequest, "lang must be a language tag such as en or de-AT.", field: "lang")
            }
            return [tag]
        }
        return request.headers.first(name: .acceptLanguage).map(LanguageTag.preferences(fromAcceptLanguage:)) ?? []
    }
}

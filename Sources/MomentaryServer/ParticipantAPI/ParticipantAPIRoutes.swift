import Fluent
import MomentaryCore
import Vapor

/// The participant API (`/api/v1`), registered from the typed route list in MomentaryCore. One
/// named handler per route, in the `ParticipantAPIRoutes+…` files: each only reads the request and
/// calls a service; no business rule lives here.
struct ParticipantAPIRoutes: RouteCollection, Sendable {
    let timeSource: any TimeSource
    let blobs: BlobStore
    let limits: RegistrationLimits
    let streamLimits: StreamUploadLimits

    init(
        timeSource: any TimeSource, blobs: BlobStore, registrationsPerStudy: Int = Configuration.defaultStudyRegistrationLimit,
        streamLimits: StreamUploadLimits = .standard
    ) {
        self.timeSource = timeSource
        self.blobs = blobs
        self.streamLimits = streamLimits
        limits = RegistrationLimits(registrationsPerStudy: registrationsPerStudy)
    }

    func boot(routes: any RoutesBuilder) throws {
        let open = routes
        let authenticated = routes.grouped(ParticipantAuthenticator(timeSource: timeSource))
        let uploadingAnswers = routes.grouped(ParticipantAuthenticator(timeSource: timeSource, readsUploadLookup: true))

        register(.register, on: open, use: registerParticipant)
        register(.studyInfo, on: open, use: studyInfo)
        register(.checkInvitation, on: open, use: checkInvitation)
        register(.webPushKey, on: open, use: webPushKey)
        register(.publicStatistics, on: open, use: PublicStatisticsRoutes.json)

        register(.status, on: authenticated, use: status)
        register(.updateSettings, on: authenticated, use: updateSettings)
        register(.updatePushToken, on: authenticated, use: updatePushToken)
        register(.feedback, on: authenticated, use: feedback)
        register(.enableDataDownload, on: authenticated, use: enableDataDownload)
        register(.disableDataDownload, on: authenticated, use: disableDataDownload)
        register(.withdraw, on: authenticated, use: withdraw)
        register(.messages, on: authenticated, use: messages)
        register(.replyToResearchers, on: authenticated, use: replyToResearchers)
        register(.readMessage, on: authenticated, use: readMessage)

        register(.beepSurvey, on: authenticated, use: beepSurvey)
        register(.volunteerSurvey, on: authenticated, use: volunteerSurvey)
        // Room for the most a response may carry (5,000 timing events with their answers on screen).
        register(.submitResponse, on: uploadingAnswers, maxBodySize: ByteCount(value: ResponseSubmission.maximumBodyBytes), use: submitResponse)
        register(.uploadPhoto, on: authenticated, maxBodySize: ByteCount(value: PhotoService.maximumBytes), use: uploadPhoto)
        register(.uploadStream, on: authenticated, maxBodySize: ByteCount(value: streamLimits.batchBytes), use: uploadStream)
        register(.reportIgnored, on: authenticated, use: reportIgnored)
    }

    private func register(
        _ route: APIRoute, on builder: any RoutesBuilder, maxBodySize: ByteCount? = nil,
        use handler: @escaping @Sendable (Request) async throws -> Response
    ) {
        let path = route.pathTemplate.pathComponents
        let body: HTTPBodyStreamStrategy = maxBodySize.map { .collect(maxSize: $0) } ?? .collect
        builder.on(HTTPMethod(rawValue: route.method.rawValue), path, body: body, use: handler)
    }

    static func uuidParameter(_ name: String, of request: Request) throws -> UUID {
        guard let text = request.parameters.get(name), let id = UUID(uuidString: text) else {
            throw APIError.notFound("“\(request.parameters.get(name) ?? "")” is not an id.")
        }
        return id
    }

    static func booleanQuery(_ name: String, of request: Request) throws -> Bool? {
        guard let text = request.query[String.self, at: name] else { return nil }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw APIError.badRequest("The query parameter “\(name)” must be true or false.")
        }
    }
}

import Foundation
import MomentaryCore

/// A typed client for every participant-API endpoint. Each call throws only `MomentaryClientError`.
public struct MomentaryAPIClient: Sendable {
    /// The server's base URL, e.g. `https://momentary.example.org` (routes add `/api/v1/…`).
    public var baseURL: URL
    /// Needed by every call except `register`.
    public var credentials: ParticipantCredentials?
    public var transport: any HTTPTransport

    public init(baseURL: URL, credentials: ParticipantCredentials? = nil,
                transport: any HTTPTransport = URLSessionTransport()) {
        self.baseURL = baseURL
        self.credentials = credentials
        self.transport = transport
    }

    /// Registers; a request without an idempotency key gets one, the same for every retry of this
    /// call, so a reply lost on the way makes no second participant.
    public func register(_ request: RegistrationRequest) async throws(MomentaryClientError) -> RegistrationResponse {
        var request = request
        if request.idempotencyKey == nil { request.idempotencyKey = UUID().uuidString.lowercased() }
        return try await call(.register, body: .json(request), expecting: [201, 200])
    }

    /// What to show before registering; needs no credentials.
    /// `language`: the texts' language if the study offers it (`?lang=`), else the default's.
    public func studyInfo(slug: String, language: String? = nil) async throws(MomentaryClientError) -> StudyInfo {
        try await call(.studyInfo, parameters: [slug], query: language.map { [URLQueryItem(name: "lang", value: $0)] } ?? [],
                       expecting: [200])
    }

    public func status() async throws(MomentaryClientError) -> ParticipantStatus {
        try await call(.status, expecting: [200])
    }

    public func updateSettings(_ settings: SignallingSettings) async throws(MomentaryClientError) {
        try await callWithoutAnswer(.updateSettings, body: .json(settings))
    }

    /// Settings with a new time zone, pollen type or language.
    public func updateSettings(_ update: SettingsUpdate) async throws(MomentaryClientError) {
        try await callWithoutAnswer(.updateSettings, body: .json(update))
    }

    public func updatePushToken(_ push: PushRegistration) async throws(MomentaryClientError) {
        try await callWithoutAnswer(.updatePushToken, body: .json(push))
    }

    public func survey(forBeep beepID: UUID) async throws(MomentaryClientError) -> SurveyDelivery {
        try await call(.beepSurvey, parameters: [beepID.uuidString.lowercased()], expecting: [200])
    }

    /// The survey for a response the participant volunteers (no beep pending).
    public func volunteerSurvey() async throws(MomentaryClientError) -> SurveyDelivery {
        try await call(.volunteerSurvey, expecting: [200])
    }

    /// 201 for a new response, 200 when the idempotency key was seen before: both are success.
    public func submitResponse(_ response: ResponseSubmission) async throws(MomentaryClientError) -> ResponseReceipt {
        try await call(.submitResponse, body: .json(response), expecting: [201, 200])
    }

    public func uploadPhoto(_ jpeg: Data, responseID: UUID, isPublic: Bool) async throws(MomentaryClientError) -> PhotoReceipt {
        try await call(.uploadPhoto, parameters: [responseID.uuidString.lowercased()],
                       query: [URLQueryItem(name: APIRoute.photoPublicQueryName, value: isPublic ? "true" : "false")],
                       body: .jpeg(jpeg), expecting: [201, 200])
    }

    /// A batch of passive data in its stream's CSV format (`PassiveStream`); sending the same key and
    /// CSV again returns the first receipt. `gzipped`: the body is already gzip-compressed.
    public func uploadStreamBatch(
        _ csv: Data, stream: PassiveStream, idempotencyKey: String, gzipped: Bool = false
    ) async throws(MomentaryClientError) -> StreamBatchReceipt {
        try await call(.uploadStream, parameters: [stream.rawValue],
                       body: .csv(csv, idempotencyKey: idempotencyKey, gzipped: gzipped), expecting: [201, 200])
    }

    public func reportIgnored(beepID: UUID) async throws(MomentaryClientError) {
        try await callWithoutAnswer(.reportIgnored, parameters: [beepID.uuidString.lowercased()])
    }

    /// The participant's own charts ("My happiness").
    public func feedback() async throws(MomentaryClientError) -> FeedbackSummary {
        try await call(.feedback, expecting: [200])
    }

    /// Turns the personal data download on with a new link (the old one stops working).
    public func enableDataDownload() async throws(MomentaryClientError) -> DataDownloadLink {
        try await call(.enableDataDownload, expecting: [201])
    }

    public func disableDataDownload() async throws(MomentaryClientError) {
        try await callWithoutAnswer(.disableDataDownload)
    }

    public func withdraw(_ request: WithdrawRequest = WithdrawRequest()) async throws(MomentaryClientError) {
        try await callWithoutAnswer(.withdraw, body: .json(request))
    }
}

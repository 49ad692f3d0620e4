/// The stable machine-readable error codes of the participant API. Apps switch on these, so a code
/// is never renamed; new ones may be added (clients treat an unknown code by its HTTP status).
public enum APIErrorCode: String, Codable, Sendable, Hashable, CaseIterable {
    /// The body is not the JSON expected (malformed, wrong types, missing keys).
    case badRequest = "bad_request"
    /// The body parsed but a value is out of range or inconsistent.
    case validationFailed = "validation_failed"
    /// Missing or wrong participant id / secret.
    case unauthorized
    /// Authenticated, but this participant may not do this (withdrawn, restricted).
    case forbidden
    case notFound = "not_found"
    case methodNotAllowed = "method_not_allowed"
    /// The request contradicts stored state (e.g. an idempotency key reused for a different body).
    case conflict
    case payloadTooLarge = "payload_too_large"
    case unsupportedMediaType = "unsupported_media_type"
    /// The request's headers or body did not arrive in time (a stalled or trickling client).
    case requestTimeout = "request_timeout"
    case tooManyRequests = "too_many_requests"
    /// The study is invitation-only and no invitation code was given.
    case invitationRequired = "invitation_required"
    /// The invitation code is unknown, already used or restricted.
    case invitationInvalid = "invitation_invalid"
    /// Registration without `consent: true`.
    case consentRequired = "consent_required"
    /// The study does not exist or is not recruiting.
    case studyNotFound = "study_not_found"
    /// The study exists but cannot be taken part in yet (no survey to answer, no consent text).
    case studyNotReady = "study_not_ready"
    /// The study was archived by its researchers: it has ended and takes no one new.
    case studyArchived = "study_archived"
    /// The beep is not this participant's, or can no longer be answered or reported.
    case beepNotAnswerable = "beep_not_answerable"
    /// The beep has been answered already.
    case beepAnswered = "beep_answered"
    /// The beep's answer window closed before the participant began (or its time to finish ran out).
    case beepExpired = "beep_expired"
    case internalError = "internal_error"
    case serviceUnavailable = "service_unavailable"

    /// The HTTP status the server answers with for this code.
    public var httpStatus: Int {
        switch self {
        case .badRequest: 400
        case .validationFailed, .consentRequired: 422
        case .unauthorized: 401
        case .forbidden, .invitationRequired, .invitationInvalid: 403
        case .notFound, .studyNotFound: 404
        case .methodNotAllowed: 405
        case .conflict, .beepNotAnswerable, .beepAnswered, .studyNotReady, .studyArchived: 409
        case .beepExpired: 410
        case .payloadTooLarge: 413
        case .unsupportedMediaType: 415
        case .requestTimeout: 408
        case .tooManyRequests: 429
        case .internalError: 500
        case .serviceUnavailable: 503
        }
    }
}

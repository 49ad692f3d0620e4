import Foundation

/// Body of `POST /api/v1/participants` (Mappiness `register`).
public struct RegistrationRequest: Codable, Sendable, Hashable {
    /// The study's slug.
    public var study: String
    /// Required when the study is invitation-only.
    public var invitationCode: String?
    /// Must be `true`; registration without consent is refused with `consent_required`.
    public var consent: Bool
    /// IANA time zone name, e.g. `Europe/London`.
    public var timezone: String
    /// The hours may be left out where the study fixes them (`hours_policy`).
    public var settings: SignallingSettingsRequest
    public var push: PushRegistration
    public var registrationAnswers: [SubmittedAnswer]
    public var device: DeviceInfo
    /// Chosen by the app, the same for every retry of this registration (or sent as the
    /// `Idempotency-Key` header): a registration retried after a lost reply makes no second participant.
    public var idempotencyKey: String?
    /// One of the study's languages (absent: the study's default); texts the server sends the
    /// participant are in it, push notifications included.
    public var language: String?

    public init(study: String, invitationCode: String? = nil, consent: Bool, timezone: String,
                settings: SignallingSettings, push: PushRegistration,
                registrationAnswers: [SubmittedAnswer] = [], device: DeviceInfo) {
        self.init(study: study, invitationCode: invitationCode, consent: consent, timezone: timezone,
                  requesting: SignallingSettingsRequest(settings), push: push, registrationAnswers: registrationAnswers, device: device)
    }

    public init(study: String, invitationCode: String? = nil, consent: Bool, timezone: String,
                requesting settings: SignallingSettingsRequest, push: PushRegistration,
                registrationAnswers: [SubmittedAnswer] = [], device: DeviceInfo) {
        self.study = study
        self.invitationCode = invitationCode
        self.consent = consent
        self.timezone = timezone
        self.settings = settings
        self.push = push
        self.registrationAnswers = registrationAnswers
        self.device = device
    }

    enum CodingKeys: String, CodingKey {
        case study
        case invitationCode = "invitation_code"
        case consent, timezone, settings, push
        case registrationAnswers = "registration_answers"
        case device
        case idempotencyKey = "idempotency_key"
        case language
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        study = try container.decode(String.self, forKey: .study)
        invitationCode = try container.decodeOmittable(String.self, forKey: .invitationCode)
        consent = try container.decode(Bool.self, forKey: .consent)
        timezone = try container.decode(String.self, forKey: .timezone)
        settings = try container.decode(SignallingSettingsRequest.self, forKey: .settings)
        push = try container.decode(PushRegistration.self, forKey: .push)
        // A study without a registration survey has nothing to send.
        registrationAnswers = try container.decodeOmittable([SubmittedAnswer].self, forKey: .registrationAnswers) ?? []
        device = try container.decode(DeviceInfo.self, forKey: .device)
        idempotencyKey = try container.decodeOmittable(String.self, forKey: .idempotencyKey)
        language = try container.decodeOmittable(String.self, forKey: .language)
    }

    /// Structural rules of the contract. Whether the study, invitation and time zone exist, and
    /// whether the settings and answers fit the study, is for the server to check.
    public func validate() throws(APIValidationError) {
        guard consent else {
            throw APIValidationError(code: .consentRequired, field: "consent",
                                     message: "Consent must be given (consent: true) to take part in a study.")
        }
        guard !study.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw APIValidationError(field: "study", message: "The study slug must not be empty.")
        }
        if let invitationCode, invitationCode.trimmingCharacters(in: .whitespaces).isEmpty {
            throw APIValidationError(field: "invitation_code", message: "The invitation code, when given, must not be empty.")
        }
        guard !timezone.isEmpty, timezone.count <= 64 else {
            throw APIValidationError(field: "timezone", message: "The time zone must be an IANA name such as Europe/London.")
        }
        if let idempotencyKey, !ResponseSubmission.isValidIdempotencyKey(idempotencyKey) {
            throw APIValidationError(field: "idempotency_key",
                                     message: "The idempotency key must be 1–\(ResponseSubmission.maximumIdempotencyKeyLength) characters of letters, digits, '-', '_', '.' or ':'.")
        }
        if let language, !LanguageTag.isWellFormed(language) {
            throw APIValidationError(field: "language", message: "The language must be a language tag such as en or de-AT.")
        }
        try push.validate()
        try device.validate()
    }
}

/// What the participant's device is; shown to researchers for support and stored with the participant.
public struct DeviceInfo: Codable, Sendable, Hashable {
    /// e.g. `iPhone15,2`, or a browser name for the web app.
    public var model: String
    /// e.g. `iOS 18.3`.
    public var os: String
    public var appVersion: String

    public init(model: String, os: String, appVersion: String) {
        self.model = model
        self.os = os
        self.appVersion = appVersion
    }

    enum CodingKeys: String, CodingKey {
        case model, os
        case appVersion = "app_version"
    }

    public func validate() throws(APIValidationError) {
        for (name, value) in [("device.model", model), ("device.os", os), ("device.app_version", appVersion)]
        where value.count > 200 {
            throw APIValidationError(field: name, message: "\(name) must be at most 200 characters.")
        }
    }
}

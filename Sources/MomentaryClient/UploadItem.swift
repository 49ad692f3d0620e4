import Foundation
import MomentaryCore

/// One message for an asynchronous endpoint (Mappiness: update_token, esm_answers, image,
/// apn_ignored), plus settings changes and withdrawal, which the app also sends in the background.
public enum UploadItem: Sendable, Hashable {
    case pushToken(PushRegistration)
    case settings(SignallingSettings)
    /// Carries its idempotency key, fixed when the response is queued.
    case response(ResponseSubmission)
    case photo(PhotoUpload)
    case ignoredBeep(beepID: UUID)
    /// A cut batch of passive data (`StreamRecorder`), with its idempotency key.
    case streamBatch(StreamBatchUpload)
    case withdraw(WithdrawRequest)

    public var kind: UploadKind {
        switch self {
        case .pushToken: .pushToken
        case .settings: .settings
        case .response: .response
        case .photo: .photo
        case .ignoredBeep: .ignoredBeep
        case .streamBatch: .streamBatch
        case .withdraw: .withdraw
        }
    }
}

/// The endpoints of the queue, in descending priority (`allCases` order).
///
/// Mappiness's order is kept for its four: push token, responses, photos, ignored reports. A
/// settings change goes right after the push token: it is tiny and changes when the next beeps
/// come. Passive sensor batches come after everything the participant did, as they are bulky and
/// nobody waits for them; withdrawal still goes last, so whatever was recorded before leaving
/// still arrives.
public enum UploadKind: String, Codable, Sendable, Hashable, CaseIterable, Comparable {
    case pushToken = "push_token"
    case settings
    case response
    case photo
    case ignoredBeep = "ignored_beep"
    case streamBatch = "stream_batch"
    case withdraw

    /// 0 is sent first.
    public var priority: Int { Self.allCases.firstIndex(of: self)! }

    public static func < (lhs: UploadKind, rhs: UploadKind) -> Bool { lhs.priority < rhs.priority }

    /// Only the newest of these matters: queuing one replaces any still waiting.
    var isSupersededByNewer: Bool { self == .pushToken || self == .settings }
}

/// A photo taken during a response. It cannot be sent before the server knows the response, so it
/// names the response by the idempotency key the app gave it; the queue looks up the server's
/// response id once the response is acknowledged.
public struct PhotoUpload: Codable, Sendable, Hashable {
    public var responseKey: String
    public var jpeg: Data
    public var isPublic: Bool

    public init(responseKey: String, jpeg: Data, isPublic: Bool) {
        self.responseKey = responseKey
        self.jpeg = jpeg
        self.isPublic = isPublic
    }

    enum CodingKeys: String, CodingKey {
        case responseKey = "response_key"
        case jpeg
        case isPublic = "is_public"
    }
}

/// A batch of one passive stream as its CSV (header included), ready to upload.
public struct StreamBatchUpload: Codable, Sendable, Hashable {
    public var stream: PassiveStream
    /// Fixed when the batch is cut, so every retry is the same batch to the server.
    public var idempotencyKey: String
    public var csv: Data

    public init(stream: PassiveStream, idempotencyKey: String, csv: Data) {
        self.stream = stream
        self.idempotencyKey = idempotencyKey
        self.csv = csv
    }

    enum CodingKeys: String, CodingKey {
        case stream
        case idempotencyKey = "idempotency_key"
        case csv
    }
}

extension UploadItem: Codable {
    enum CodingKeys: String, CodingKey {
        case kind, push, settings, response, photo
        case beepID = "beep_id"
        case streamBatch = "stream_batch"
        case withdraw
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(UploadKind.self, forKey: .kind) {
        case .pushToken: self = .pushToken(try container.decode(PushRegistration.self, forKey: .push))
        case .settings: self = .settings(try container.decode(SignallingSettings.self, forKey: .settings))
        case .response: self = .response(try container.decode(ResponseSubmission.self, forKey: .response))
        case .photo: self = .photo(try container.decode(PhotoUpload.self, forKey: .photo))
        case .ignoredBeep: self = .ignoredBeep(beepID: try container.decode(UUID.self, forKey: .beepID))
        case .streamBatch: self = .streamBatch(try container.decode(StreamBatchUpload.self, forKey: .streamBatch))
        case .withdraw: self = .withdraw(try container.decode(WithdrawRequest.self, forKey: .withdraw))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .pushToken(let push): try container.encode(push, forKey: .push)
        case .settings(let settings): try container.encode(settings, forKey: .settings)
        case .response(let response): try container.encode(response, forKey: .response)
        case .photo(let photo): try container.encode(photo, forKey: .photo)
        case .ignoredBeep(let beepID): try container.encode(beepID, forKey: .beepID)
        case .streamBatch(let batch): try container.encode(batch, forKey: .streamBatch)
        case .withdraw(let request): try container.encode(request, forKey: .withdraw)
        }
    }
}

import Foundation
import MomentaryCore

/// What the queue asks its sender to deliver: an item with everything resolved (a photo knows its
/// server response id).
public enum OutgoingUpload: Sendable, Hashable {
    case pushToken(PushRegistration)
    case settings(SignallingSettings)
    case response(ResponseSubmission)
    case photo(responseID: UUID, jpeg: Data, isPublic: Bool)
    case ignoredBeep(beepID: UUID)
    case streamBatch(StreamBatchUpload)
    case withdraw(WithdrawRequest)
}

/// The server's acknowledgement (a 2xx) of an outgoing upload.
public enum UploadAcknowledgement: Sendable, Hashable {
    case accepted
    case response(ResponseReceipt)
    case photo(PhotoReceipt)
    case streamBatch(StreamBatchReceipt)
}

/// Delivers one upload, or throws (`MomentaryClientError` tells the queue whether to retry).
public typealias UploadSender = @Sendable (OutgoingUpload) async throws -> UploadAcknowledgement

extension MomentaryAPIClient {
    public func send(_ upload: OutgoingUpload) async throws(MomentaryClientError) -> UploadAcknowledgement {
        switch upload {
        case .pushToken(let push):
            try await updatePushToken(push)
            return .accepted
        case .settings(let settings):
            try await updateSettings(settings)
            return .accepted
        case .response(let response):
            return .response(try await submitResponse(response))
        case .photo(let responseID, let jpeg, let isPublic):
            return .photo(try await uploadPhoto(jpeg, responseID: responseID, isPublic: isPublic))
        case .ignoredBeep(let beepID):
            try await reportIgnored(beepID: beepID)
            return .accepted
        case .streamBatch(let batch):
            return .streamBatch(try await uploadStreamBatch(batch.csv, stream: batch.stream, idempotencyKey: batch.idempotencyKey))
        case .withdraw(let request):
            try await withdraw(request)
            return .accepted
        }
    }

    /// This client as the upload queue's sender.
    public var uploadSender: UploadSender {
        { upload in try await self.send(upload) }
    }
}

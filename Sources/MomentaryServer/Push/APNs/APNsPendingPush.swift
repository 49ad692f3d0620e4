import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2

/// One notification handed to an APNs connection, from the moment it is queued until it is
/// answered or given up: it waits for a free stream, is sent on `streamID`, and collects APNs'
/// reply (the `:status`, the `apns-id` header and the `reason` of an error body).
///
/// Lives on the connection's event loop only.
final class APNsPendingPush {
    /// APNs error bodies are a few dozen bytes; anything bigger is not APNs.
    static let maximumAnswerBody = 64 * 1024

    let request: APNsRequest
    let deadline: NIODeadline
    /// The stream it was sent on; nil while it waits for one.
    var streamID: HTTP2StreamID?
    /// Nil once the sender has been answered.
    private var sender: UnsafeContinuation<APNsResponse, any Error>?
    private var status: Int?
    private var apnsID: String?
    private var body: ByteBuffer?

    init(request: APNsRequest, deadline: NIODeadline, sender: UnsafeContinuation<APNsResponse, any Error>) {
        self.request = request
        self.deadline = deadline
        self.sender = sender
    }

    var isAnswered: Bool { sender == nil }

    func received(_ headers: HPACKHeaders) {
        // Informational (1xx) heads are skipped; APNs sends none, but HTTP/2 allows them.
        if status == nil, let code = headers.first(name: ":status").flatMap(Int.init), code >= 200 {
            status = code
            apnsID = headers.first(name: "apns-id")
        }
    }

    func received(_ data: IOData) {
        guard case .byteBuffer(var chunk) = data,
              (body?.readableBytes ?? 0) + chunk.readableBytes <= Self.maximumAnswerBody
        else { return }
        if body == nil {
            body = chunk
        } else {
            body!.writeBuffer(&chunk)
        }
    }

    /// The stream ended normally: answers the sender with what was received.
    func finish() {
        guard let status else {
            fail(APNsConnectionError.malformedAnswer)
            return
        }
        let reason = body.flatMap { APNsResponse.reason(fromBody: Data($0.readableBytesView)) }
        answer(.success(APNsResponse(status: status, reason: reason, apnsID: apnsID)))
    }

    /// Does nothing when the sender is already answered.
    func fail(_ error: any Error) {
        answer(.failure(error))
    }

    private func answer(_ result: Result<APNsResponse, any Error>) {
        guard let sender else { return }
        self.sender = nil
        sender.resume(with: result)
    }
}

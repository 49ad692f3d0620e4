import Foundation
import MomentaryClient
import MomentaryCore
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Client errors")
struct MomentaryClientErrorTests {
    func body(_ code: APIErrorCode, _ message: String) throws -> Data {
        try WireCoding.makeEncoder().encode(APIErrorBody(code: code, message: message))
    }

    @Test("4xx answers keep the server's code and message")
    func clientErrors() throws {
        let invitation = MomentaryClientError(status: 403, retryAfterHeader: nil,
                                              body: try body(.invitationRequired, "This study needs an invitation code."))
        #expect(invitation == .forbidden(code: "invitation_required", message: "This study needs an invitation code."))
        #expect(invitation.serverCode == APIErrorCode.invitationRequired.rawValue)

        let validation = MomentaryClientError(status: 422, retryAfterHeader: nil, body: try body(.validationFailed, "Bad latitude."))
        #expect(validation == .badRequest(status: 422, code: "validation_failed", message: "Bad latitude."))
        #expect(MomentaryClientError(status: 401, retryAfterHeader: nil, body: try body(.unauthorized, "Wrong secret."))
                == .unauthorized(code: "unauthorized", message: "Wrong secret."))
        #expect(MomentaryClientError(status: 404, retryAfterHeader: nil, body: try body(.notFound, "No such beep."))
                == .notFound(code: "not_found", message: "No such beep."))
    }

    @Test("a body that is not the API's error shape still gives a readable error")
    func foreignBodies() {
        let proxy = MomentaryClientError(status: 400, retryAfterHeader: nil, body: Data("<html>Bad Request</html>".utf8))
        guard case .badRequest(400, nil, let message) = proxy else {
            Issue.record("expected a bad request, got \(proxy)")
            return
        }
        #expect(message.contains("400"))
        let plain = MomentaryClientError(status: 409, retryAfterHeader: nil, body: Data("duplicate".utf8))
        #expect(plain == .badRequest(status: 409, code: nil, message: "duplicate"))
    }

    @Test("429 and 5xx carry Retry-After in seconds or as an HTTP date")
    func retryAfter() {
        let now = Date(timeIntervalSince1970: 1_774_772_040) // Sun, 29 Mar 2026 08:14:00 GMT
        #expect(MomentaryClientError(status: 429, retryAfterHeader: "120", body: Data()) == .tooManyRequests(retryAfter: 120))
        let dated = MomentaryClientError(status: 503, retryAfterHeader: "Sun, 29 Mar 2026 08:15:30 GMT", body: Data(), now: now)
        #expect(dated == .unavailable(status: 503, retryAfter: 90))
        #expect(MomentaryClientError(status: 502, retryAfterHeader: "soon", body: Data()) == .unavailable(status: 502, retryAfter: nil))
        #expect(MomentaryClientError(status: 408, retryAfterHeader: nil, body: Data()) == .timeout)
        #expect(MomentaryClientError(status: 302, retryAfterHeader: nil, body: Data()) == .invalidResponse(reason: "unexpected HTTP status 302"))
    }

    @Test("permanent means a 4xx other than 408 and 429; everything else but cancellation may be retried",
          arguments: [400, 401, 403, 404, 405, 408, 409, 413, 415, 422, 429, 500, 502, 503, 504])
    func permanence(status: Int) {
        let error = MomentaryClientError(status: status, retryAfterHeader: nil, body: Data())
        let expectPermanent = (400..<500).contains(status) && status != 408 && status != 429
        #expect(error.isPermanent == expectPermanent)
        #expect(error.isRetryable == !expectPermanent)
    }

    @Test("transport failures map to timeout, connection lost, cannot connect")
    func transportFailures() {
        #expect(MomentaryClientError(transportError: URLError(.timedOut)) == .timeout)
        #expect(MomentaryClientError(transportError: URLError(.networkConnectionLost)) == .connectionLost)
        #expect(MomentaryClientError(transportError: CancellationError()) == .cancelled)
        for code in [URLError.Code.notConnectedToInternet, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed] {
            let error = MomentaryClientError(transportError: URLError(code))
            guard case .cannotConnect = error else {
                Issue.record("\(code) gave \(error)")
                continue
            }
            #expect(error.isRetryable)
        }
        #expect(!MomentaryClientError.cancelled.isRetryable)
        #expect(!MomentaryClientError.cancelled.isPermanent)
        #expect(MomentaryClientError(transportError: URLError(.badServerResponse)).isRetryable)
    }
}

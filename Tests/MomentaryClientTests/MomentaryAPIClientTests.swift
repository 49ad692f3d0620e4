import Foundation
import MomentaryClient
import MomentaryCore
import Testing

/// Answers every request with one canned response and remembers the requests.
actor RecordingTransport: HTTPTransport {
    private(set) var requests: [HTTPExchangeRequest] = []
    private let answer: HTTPExchangeResponse

    init(_ answer: HTTPExchangeResponse) {
        self.answer = answer
    }

    func send(_ request: HTTPExchangeRequest) async throws -> HTTPExchangeResponse {
        requests.append(request)
        return answer
    }
}

@Suite("API client requests")
struct MomentaryAPIClientTests {
    let credentials = ParticipantCredentials(participantID: UUID(uuidString: "1F0C6A52-3C57-4C39-9C1B-2B5C8B1E0E11")!,
                                             secret: "abcdefghij0123456789")

    func json<T: Encodable>(_ value: T, status: Int = 200) throws -> HTTPExchangeResponse {
        HTTPExchangeResponse(status: status, headers: ["Content-Type": "application/json"],
                             body: try WireCoding.makeEncoder().encode(value))
    }

    @Test("a response upload posts JSON to /api/v1/responses with Basic credentials")
    func submitResponse() async throws {
        let receipt = ResponseReceipt(responseID: UUID(), volunteered: false, delaySeconds: 42)
        let transport = RecordingTransport(try json(receipt, status: 201))
        let client = MomentaryAPIClient(baseURL: URL(string: "https://esm.example.org/momentary/")!,
                                        credentials: credentials, transport: transport)
        let submission = Fixture.response(key: "k1")
        #expect(try await client.submitResponse(submission) == receipt)

        let request = try #require(await transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://esm.example.org/momentary/api/v1/responses")
        let expectedAuth = "Basic " + Data("1f0c6a52-3c57-4c39-9c1b-2b5c8b1e0e11:abcdefghij0123456789".utf8).base64EncodedString()
        #expect(request.headers["Authorization"] == expectedAuth)
        #expect(request.headers["Content-Type"] == WireCoding.jsonContentType)
        let sent = try WireCoding.makeDecoder().decode(ResponseSubmission.self, from: try #require(request.body))
        #expect(sent == submission)
    }

    @Test("a photo goes as JPEG with the public flag in the query")
    func photo() async throws {
        let transport = RecordingTransport(try json(PhotoReceipt(photoID: UUID()), status: 201))
        let client = MomentaryAPIClient(baseURL: URL(string: "http://127.0.0.1:8080")!, credentials: credentials,
                                        transport: transport)
        let responseID = UUID()
        _ = try await client.uploadPhoto(Data([0xFF, 0xD8]), responseID: responseID, isPublic: true)
        let request = try #require(await transport.requests.first)
        #expect(request.url.absoluteString ==
                "http://127.0.0.1:8080/api/v1/responses/\(responseID.uuidString.lowercased())/photo?public=true")
        #expect(request.headers["Content-Type"] == "image/jpeg")
        #expect(request.body == Data([0xFF, 0xD8]))
    }

    @Test("registration needs no credentials; other calls refuse to go out without them")
    func credentialsRules() async throws {
        let registered = RegistrationResponse(participantID: UUID(), secret: "s",
                                              study: StudySummary(slug: "m", name: "M", scheduling: .server))
        let transport = RecordingTransport(try json(registered, status: 201))
        let client = MomentaryAPIClient(baseURL: URL(string: "http://127.0.0.1:8080")!, transport: transport)
        let request = RegistrationRequest(study: "m", consent: true, timezone: "Europe/London", settings: .standard,
                                          push: .none, device: DeviceInfo(model: "cli", os: "Linux", appVersion: "0.1"))
        #expect(try await client.register(request) == registered)
        #expect(await transport.requests.first?.headers["Authorization"] == nil)

        await #expect(throws: MomentaryClientError.self) { _ = try await client.status() }
        #expect(await transport.requests.count == 1)
    }

    @Test("an error answer becomes the matching client error")
    func errorAnswer() async throws {
        let body = try WireCoding.makeEncoder().encode(APIErrorBody(code: .beepNotAnswerable, message: "That beep has expired."))
        let transport = RecordingTransport(HTTPExchangeResponse(status: 409, body: body))
        let client = MomentaryAPIClient(baseURL: URL(string: "http://127.0.0.1:8080")!, credentials: credentials,
                                        transport: transport)
        do {
            try await client.reportIgnored(beepID: UUID())
            Issue.record("expected an error")
        } catch {
            #expect(error == .badRequest(status: 409, code: "beep_not_answerable", message: "That beep has expired."))
            #expect(error.isPermanent)
        }
    }

    @Test("a 2xx whose body is not the expected type is an invalid response")
    func undecodableAnswer() async throws {
        let transport = RecordingTransport(HTTPExchangeResponse(status: 200, body: Data("<html>portal</html>".utf8)))
        let client = MomentaryAPIClient(baseURL: URL(string: "http://127.0.0.1:8080")!, credentials: credentials,
                                        transport: transport)
        do {
            _ = try await client.status()
            Issue.record("expected an error")
        } catch {
            guard case .invalidResponse = error else {
                Issue.record("expected invalid response, got \(error)")
                return
            }
            #expect(error.isRetryable)
        }
    }
}

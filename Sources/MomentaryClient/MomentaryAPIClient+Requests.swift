import Foundation
import MomentaryCore

extension MomentaryAPIClient {
    enum RequestBody {
        case none
        case json(any Encodable)
        case jpeg(Data)
        /// A stream batch with its idempotency key, gzip-compressed when `gzipped`.
        case csv(Data, idempotencyKey: String, gzipped: Bool)
    }

    func call<Answer: Decodable>(
        _ route: APIRoute, parameters: [String] = [], query: [URLQueryItem] = [],
        body: RequestBody = .none, expecting statuses: Set<Int>
    ) async throws(MomentaryClientError) -> Answer {
        let response = try await exchange(route, parameters: parameters, query: query, body: body)
        guard statuses.contains(response.status) else {
            throw .invalidResponse(reason: "\(route) answered HTTP \(response.status), expected \(statuses.sorted())")
        }
        do {
            return try WireCoding.makeDecoder().decode(Answer.self, from: response.body)
        } catch {
            throw .invalidResponse(reason: "\(route) answered a body that is not \(Answer.self): \(error)")
        }
    }

    /// For calls whose success carries no information the app needs (any 2xx).
    func callWithoutAnswer(
        _ route: APIRoute, parameters: [String] = [], body: RequestBody = .none
    ) async throws(MomentaryClientError) {
        _ = try await exchange(route, parameters: parameters, query: [], body: body)
    }

    /// Sends the request and returns any 2xx answer; everything else becomes a `MomentaryClientError`.
    func exchange(
        _ route: APIRoute, parameters: [String], query: [URLQueryItem], body: RequestBody
    ) async throws(MomentaryClientError) -> HTTPExchangeResponse {
        let request = try makeRequest(route, parameters: parameters, query: query, body: body)
        let response: HTTPExchangeResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw MomentaryClientError(transportError: error)
        }
        guard (200..<300).contains(response.status) else {
            throw MomentaryClientError(status: response.status, retryAfterHeader: response.headers["retry-after"],
                                       body: response.body)
        }
        return response
    }

    func makeRequest(
        _ route: APIRoute, parameters: [String], query: [URLQueryItem], body: RequestBody
    ) throws(MomentaryClientError) -> HTTPExchangeRequest {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw .invalidRequest(reason: "the server address \(baseURL) is not a URL")
        }
        let basePath = components.percentEncodedPath.hasSuffix("/")
            ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = basePath + route.path(parameters)
        components.queryItems = query.isEmpty ? nil : query
        guard let url = components.url else {
            throw .invalidRequest(reason: "cannot build the URL for \(route) on \(baseURL)")
        }
        var headers = ["Accept": "application/json"]
        if route.requiresAuthentication {
            guard let credentials else {
                throw .unauthorized(code: nil, message: "This installation is not registered with a study yet.")
            }
            headers["Authorization"] = credentials.authorizationHeader
        }
        var data: Data?
        switch body {
        case .none:
            break
        case .json(let value):
            do {
                data = try WireCoding.makeEncoder().encode(value)
            } catch {
                throw .invalidRequest(reason: "cannot encode the body of \(route): \(error)")
            }
            headers["Content-Type"] = WireCoding.jsonContentType
        case .jpeg(let jpeg):
            data = jpeg
            headers["Content-Type"] = WireCoding.jpegContentType
        case .csv(let csv, let key, let gzipped):
            data = csv
            headers["Content-Type"] = WireCoding.csvContentType
            headers[APIRoute.idempotencyKeyHeader] = key
            if gzipped { headers["Content-Encoding"] = "gzip" }
        }
        return HTTPExchangeRequest(method: route.method.rawValue, url: url, headers: headers, body: data)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plain HTTP requests for tests that must send what no well-behaved client would.
enum RawHTTP {
    static func send(
        _ base: URL, _ method: String, _ path: String, body: Data?, headers: [String: String] = [:]
    ) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: path, relativeTo: base)!)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// The raw bytes and headers, for binary downloads.
    static func fetch(_ base: URL, _ path: String, headers: [String: String] = [:]) async throws -> (status: Int, body: Data, headers: [String: String]) {
        var request = URLRequest(url: URL(string: path, relativeTo: base)!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] { fields[String(describing: name).lowercased()] = String(describing: value) }
        return (http?.statusCode ?? 0, data, fields)
    }

    static func post(_ base: URL, _ path: String, json: String, headers: [String: String] = [:]) async throws -> (status: Int, body: String) {
        try await send(base, "POST", path, body: Data(json.utf8), headers: ["Content-Type": "application/json"].merging(headers) { $1 })
    }

    static func basic(_ id: UUID, _ secret: String) -> [String: String] {
        ["Authorization": "Basic " + Data("\(id.uuidString.lowercased()):\(secret)".utf8).base64EncodedString()]
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plain HTTP requests for tests that must send what no well-behaved client would.
enum RawHTTP {
    /// Any request, answered with the raw bytes and the headers (names lowercased). `timeout`
    /// is for servers a test has slowed on purpose; `session` for tests that need more
    /// connections to one host than the shared session opens.
    static func fetch(
        _ base: URL, _ path: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:],
        session: URLSession = .shared, timeout: TimeInterval? = nil
    ) async throws -> (status: Int, body: Data, headers: [String: String]) {
        var request = URLRequest(url: URL(string: path, relativeTo: base)!)
        request.httpMethod = method
        request.httpBody = body
        if let timeout { request.timeoutInterval = timeout }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] { fields[String(describing: name).lowercased()] = String(describing: value) }
        return (http?.statusCode ?? 0, data, fields)
    }

    /// `fetch` with the body read as text.
    static func send(
        _ base: URL, _ method: String, _ path: String, body: Data?, headers: [String: String] = [:],
        session: URLSession = .shared
    ) async throws -> (status: Int, body: String) {
        let answer = try await fetch(base, path, method: method, body: body, headers: headers, session: session)
        return (answer.status, String(decoding: answer.body, as: UTF8.self))
    }

    /// POSTs `json` as `application/json`; `headers` may add to or replace that.
    static func post(
        _ base: URL, _ path: String, json: Data, headers: [String: String] = [:], session: URLSession = .shared
    ) async throws -> (status: Int, body: String) {
        try await send(base, "POST", path, body: json, headers: ["Content-Type": "application/json"].merging(headers) { $1 }, session: session)
    }

    static func post(_ base: URL, _ path: String, json: String, headers: [String: String] = [:]) async throws -> (status: Int, body: String) {
        try await post(base, path, json: Data(json.utf8), headers: headers)
    }

    static func basic(_ id: UUID, _ secret: String) -> [String: String] {
        ["Authorization": "Basic " + Data("\(id.uuidString.lowercased()):\(secret)".utf8).base64EncodedString()]
    }
}

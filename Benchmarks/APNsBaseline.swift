import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// The limit the APNs channel is measured against: the same notifications POSTed by a plain
/// AsyncHTTPClient loop — the stack the channel used before, and the one the usual Swift APNs
/// libraries share — with the settings the channel had (HTTP/2 by ALPN, one event loop so one
/// connection, the extra CA).
struct APNsBaselineClient {
    let client: HTTPClient
    private let group: MultiThreadedEventLoopGroup
    private let deviceURL: String
    private let headers: [(String, String)]

    init(url: URL, trusting certificates: [NIOSSLCertificate], deviceToken: String, topic: String, jwt: String) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var tls = TLSConfiguration.makeClientConfiguration()
        if !certificates.isEmpty { tls.additionalTrustRoots = [.certificates(certificates)] }
        var settings = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        settings.httpVersion = .automatic
        settings.timeout = .init(connect: .seconds(10))
        settings.connectionPool.idleTimeout = .minutes(10)
        client = HTTPClient(eventLoopGroup: group, configuration: settings)
        var base = url.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        deviceURL = "\(base)/3/device/\(deviceToken)"
        headers = [
            ("authorization", "bearer \(jwt)"), ("apns-topic", topic), ("apns-push-type", "alert"), ("apns-priority", "10"),
        ]
    }

    /// POSTs one notification as the channel would; true when the server answered 200.
    func send(_ notification: APNsBenchmarkNotification) async -> Bool {
        var request = HTTPClientRequest(url: deviceURL)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.headers.add(name: "apns-expiration", value: notification.expiration)
        request.headers.add(name: "apns-id", value: notification.id)
        request.body = .bytes(ByteBuffer(bytes: notification.body))
        do {
            let response = try await client.execute(request, timeout: .seconds(15))
            _ = try await response.body.collect(upTo: 64 * 1024)
            return response.status.code == 200
        } catch {
            return false
        }
    }

    func shutdown() async throws {
        try await client.shutdown()
        try await group.shutdownGracefully()
    }
}

/// One benchmark notification's per-request parts, as the channel would encode them.
struct APNsBenchmarkNotification: Sendable {
    static let alert = "How do you feel? Please tell us as soon as you safely can."

    let id: String
    let expiration: String
    let body: Data

    init(beepID: UUID = UUID(), expiresAt: Date = Date().addingTimeInterval(3600)) {
        id = beepID.uuidString.lowercased()
        expiration = String(Int(expiresAt.timeIntervalSince1970))
        body = Data(#"{"aps":{"alert":"\#(Self.alert)","sound":"default","badge":1},"beep_id":"\#(id)"}"#.utf8)
    }
}

/// `h2load` (Debian's nghttp2-client) posting the same notification over one connection with
/// the same number of streams in flight: what the HTTP/2 protocol and the server allow at most.
enum H2Load {
    /// Requests per second, or nil when h2load is not installed or did not report a rate.
    static func perSecond(url: String, headers: [(String, String)], body: Data, requests: Int, streams: Int) -> Double? {
        guard let executable = ProcessInfo.processInfo.environment["PATH"]?
            .split(separator: ":").map({ "\($0)/h2load" })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return nil }
        let bodyFile = FileManager.default.temporaryDirectory.appendingPathComponent("h2load-body-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: bodyFile) }
        guard (try? body.write(to: bodyFile)) != nil else { return nil }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-n", String(requests), "-c", "1", "-m", String(streams), "-d", bodyFile.path]
            + headers.flatMap { ["-H", "\($0.0): \($0.1)"] } + [url]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "finished in 1.23s, 81234.56 req/s, 2.1MB/s"
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("finished in") }),
              let rate = line.split(separator: ",").dropFirst().first?.split(separator: " ").first
        else { return nil }
        return Double(rate)
    }
}

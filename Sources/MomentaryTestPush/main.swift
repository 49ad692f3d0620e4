import Foundation
import MomentaryTestServers

// `momentary-test-push --ca-out FILE [--port N]`: the local Web Push service over https, for tests
// that run the server and a browser as separate processes. Writes the certificate authority to
// trust (give it to the server as WEBPUSH_CA_FILE), prints one line with its origin, and serves
// until it is killed. Subscriptions and received messages are reached through its control
// routes (see LocalWebPushService+Control.swift).

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

guard let caPath = option("--ca-out") else {
    FileHandle.standardError.write(Data("usage: momentary-test-push --ca-out FILE [--port N]\n".utf8))
    exit(2)
}
let port = option("--port").flatMap(Int.init) ?? 0
do {
    let certificates = try LocalAPNsCertificates.generate()
    try certificates.certificateAuthorityPEM.write(toFile: caPath, atomically: true, encoding: .utf8)
    let service = try await LocalWebPushService.start(port: port, tls: certificates)
    FileHandle.standardOutput.write(Data("momentary-test-push listening on \(service.origin)\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }
} catch {
    FileHandle.standardError.write(Data("momentary-test-push: \(error)\n".utf8))
    exit(1)
}

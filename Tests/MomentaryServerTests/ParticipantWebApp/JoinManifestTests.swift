import Foundation
@testable import MomentaryServer
import Testing
import VaporTesting

/// The iPhone path: whatever join page a participant adds to the home screen, the installed app
/// opens that join page (docs/iphone.md).
@Suite("Participant web app: a manifest per join link")
struct JoinManifestTests {
    func json(_ response: TestingHTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
    }

    @Test("the join page links its own manifest, whose start_url and id are the join link, code included")
    func joinManifest() async throws {
        try await withTestApp { app, _ in
            try await APIFixture.seedDemo(on: app.db)
            let tester = try app.testing()
            try await tester.test(.GET, "join/demo?code=ABCDE") { response in
                #expect(response.body.string.contains(#"<link rel="manifest" href="/join/demo/manifest.webmanifest?code=ABCDE">"#))
            }
            try await tester.test(.GET, "join/demo/manifest.webmanifest?code=ABCDE") { response in
                #expect(response.status == .ok)
                #expect(response.headers.contentType?.description.hasPrefix("application/manifest+json") == true)
                let manifest = try json(response)
                #expect(manifest["start_url"] as? String == "/join/demo?code=ABCDE")
                #expect(manifest["id"] as? String == "/join/demo")
                #expect(manifest["scope"] as? String == "/", "the app's scope, so its service worker serves the installed app")
                #expect((manifest["icons"] as? [Any])?.isEmpty == false)
            }
            try await tester.test(.GET, "join/demo/manifest.webmanifest?code=%22%3E%3Cscript%3E") { response in
                let manifest = try json(response)
                #expect(manifest["start_url"] as? String == "/join/demo", "a code that is not letters and digits is left out")
            }
            try await tester.test(.GET, "join/nowhere/manifest.webmanifest") { response in
                #expect(response.status == .notFound)
            }
            try await tester.test(.GET, "app") { response in
                #expect(response.body.string.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#))
            }
        }
    }
}

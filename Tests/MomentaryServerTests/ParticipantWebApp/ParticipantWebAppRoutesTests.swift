import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

/// How the server hands out the participant web app: one shell for every screen, files with
/// validators, a service worker stamped with the app's version, and headers that forbid inline
/// script and framing.
@Suite("Participant web app: serving")
struct ParticipantWebAppRoutesTests {
    @Test("every screen's URL answers the same HTML shell, with the security headers")
    func screensShareTheShell() async throws {
        try await withTestApp { app, _ in
            let tester = try app.testing()
            var shells: Set<String> = []
            for path in ["app", "app/settings", "app/beep/6f1c0d2e-0000-4000-8000-000000000001", "join/demo"] {
                try await tester.test(.GET, path) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers.contentType?.subType == "html", "\(path)")
                    let policy = response.headers.first(name: "Content-Security-Policy") ?? ""
                    #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"), "\(path): \(policy)")
                    #expect(policy.contains("frame-ancestors 'none'"))
                    #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff")
                    #expect(response.headers.first(name: "X-Frame-Options") == "DENY")
                    // A join page links its own manifest (JoinManifest); otherwise the shell is the same.
                    shells.insert(response.body.string.replacingOccurrences(
                        of: "href=\"/join/demo/manifest.webmanifest\"", with: "href=\"/manifest.webmanifest\""))
                }
            }
            #expect(shells.count == 1)
            #expect(shells.first?.contains("/app/js/main.js") == true)
        }
    }

    @Test("a file answers with its ETag and then 304 Not Modified; a missing or hidden file is 404")
    func filesRevalidate() async throws {
        try await withTestApp { app, _ in
            let tester = try app.testing()
            var etag = ""
            try await tester.test(.GET, "app/js/main.js") { response in
                #expect(response.status == .ok)
                #expect(response.headers.first(name: .contentType)?.hasPrefix("text/javascript") == true)
                #expect(response.headers.first(name: .cacheControl) == "no-cache")
                etag = response.headers.first(name: .eTag) ?? ""
            }
            #expect(etag.hasPrefix("\"") && etag.count > 10)
            try await tester.test(.GET, "app/js/main.js", headers: ["If-None-Match": etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await tester.test(.GET, "app/js/no-such-file.js") { #expect($0.status == .notFound) }
            try await tester.test(.GET, "app/js/..%2F..%2Fsw.js") { #expect($0.status == .notFound) }
        }
    }

    @Test("the service worker carries the app's version, its file list (English the one catalogue) and every catalogue's tag, and may control the whole origin")
    func serviceWorkerIsStamped() async throws {
        try await withTestApp { app, _ in
            try await app.testing().test(.GET, "sw.js") { response in
                #expect(response.status == .ok)
                #expect(response.headers.first(name: "Service-Worker-Allowed") == "/")
                let text = response.body.string
                #expect(!text.contains(WebAppFiles.versionPlaceholder))
                #expect(!text.contains(WebAppFiles.fileListPlaceholder))
                #expect(text.contains("\"/app/js/main.js\""))
                #expect(text.contains("\"/manifest.webmanifest\""))
                #expect(!text.contains(WebAppFiles.catalogueListPlaceholder))
                #expect(!text.contains("icon-512.png") && !text.contains("preview.js"), "files the app never needs offline")
                #expect(text.contains("\"/app/i18n/en.json\"") && !text.contains("\"/app/i18n/de.json\""),
                        "a first visit precaches English only; the worker adds the participant's catalogue")
                let tags = AppLanguages.supported.sorted().map { "\"\($0)\"" }.joined(separator: ",")
                #expect(text.contains("[\(tags)]"), "every catalogue's tag")
            }
            try await app.testing().test(.GET, "manifest.webmanifest") { response in
                #expect(response.status == .ok)
                let manifest = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
                #expect(manifest?["start_url"] as? String == "/app")
            }
        }
    }

    @Test("changing any file changes the service worker's version")
    func versionFollowsFiles() throws {
        let directory = TestScratch.file("webapp")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("app"), withIntermediateDirectories: true)
        try Data("const v = '__APP_VERSION__'; const f = __APP_FILES__;".utf8).write(to: directory.appendingPathComponent("sw.js"))
        try Data("<html></html>".utf8).write(to: directory.appendingPathComponent("app/index.html"))
        try Data("a {}".utf8).write(to: directory.appendingPathComponent("app/app.css"))
        let before = try WebAppFiles(directory: directory)
        try Data("a { color: red }".utf8).write(to: directory.appendingPathComponent("app/app.css"))
        let after = try WebAppFiles(directory: directory)
        #expect(before.version != after.version)
        let worker = String(decoding: try #require(after["sw.js"]).body, as: UTF8.self)
        #expect(worker == "const v = '\(after.version)'; const f = [\"/app\",\"/manifest.webmanifest\",\"/app/app.css\"];")
        #expect(before["sw.js"]?.etag != after["sw.js"]?.etag)
    }

    @Test("the front door sends participants to the app and signed-in researchers to their studies")
    func frontDoor() async throws {
        try await withTestApp { app, _ in
            try await app.testing().test(.GET, "/") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers.first(name: .location) == "/app")
            }
            try await app.testing().test(.GET, "/", headers: ["Cookie": "\(WebSession.cookieName)=something"]) { response in
                #expect(response.headers.first(name: .location) == "/studies")
            }
        }
    }
}

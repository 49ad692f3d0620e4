import Foundation
import Vapor

/// A manifest for each join link, so the app a participant adds to the home screen from a join page
/// opens that join page, code included. On iOS this matters most: push reaches only home-screen
/// apps, and a home-screen app has storage of its own, so nothing typed in Safari carries over
/// (docs/iphone.md). The join page's shell links its own manifest instead of the app's.
enum JoinManifest {
    static let appManifestPath = "/manifest.webmanifest"

    /// The join page's path with the code, if the slug and code are well formed; nil otherwise
    /// (the app's own manifest is then kept).
    static func startURL(slug: String, code: String?) -> String? {
        guard StudySlug.problem(slug) == nil else { return nil }
        let path = "/join/\(slug)"
        guard let code, isWellFormed(code) else { return path }
        return path + "?code=" + code
    }

    static func manifestPath(slug: String, code: String?) -> String? {
        guard StudySlug.problem(slug) == nil else { return nil }
        let path = "/join/\(slug)/manifest.webmanifest"
        guard let code, isWellFormed(code) else { return path }
        return path + "?code=" + code
    }

    /// Invitation codes are letters and digits; anything else is left out rather than escaped.
    static func isWellFormed(_ code: String) -> Bool {
        (1...64).contains(code.count) && code.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    /// The app's manifest with this join link as its start and identity.
    static func manifest(from appManifest: Data, slug: String, code: String?, studyName: String?) throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: appManifest) as? [String: Any],
              let start = startURL(slug: slug, code: code)
        else { throw Abort(.notFound) }
        object["start_url"] = start
        // One installed app per study: a second join link of the same study replaces, not adds.
        object["id"] = "/join/\(slug)"
        if let studyName, !studyName.isEmpty { object["name"] = "\(studyName) · Momentary" }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// The app's shell with the join link's manifest in place of the app's.
    static func shell(_ body: Data, slug: String, code: String?) -> Data {
        guard let path = manifestPath(slug: slug, code: code) else { return body }
        let text = String(decoding: body, as: UTF8.self)
            .replacingOccurrences(of: "href=\"\(appManifestPath)\"", with: "href=\"\(path)\"")
        return Data(text.utf8)
    }
}

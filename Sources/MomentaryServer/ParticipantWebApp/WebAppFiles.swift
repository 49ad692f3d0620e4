import Foundation

/// The participant web app's files (`Public/`), read once at start-up, each with its content
/// hash for `ETag`. The service worker is stamped with a version made of every file's hash and
/// with the list of files to precache, so any change to any file installs a new worker.
struct WebAppFiles: Sendable {
    struct File: Sendable {
        let body: Data
        let contentType: String
        /// A strong validator: the file's SHA-256, quoted.
        let etag: String
    }

    /// Relative paths such as `app/js/main.js` → file.
    let files: [String: File]
    /// The stamp of this set of files: changes whenever any file does.
    let version: String

    static let serviceWorkerPath = "sw.js"
    static let versionPlaceholder = "__APP_VERSION__"
    static let fileListPlaceholder = "__APP_FILES__"
    static let catalogueListPlaceholder = "__APP_CATALOGUES__"
    static let catalogueFolder = "app/i18n/"
    /// Files the app never needs offline, left out of the precache: the home-screen icons (read
    /// when the app is added, online) and the researcher website's survey preview.
    static let notForOffline: Set<String> = ["app/icons/icon-192.png", "app/icons/icon-512.png", "app/js/preview.js"]

    /// Reads every file below `directory` (hidden files skipped) and stamps the service worker.
    init(directory: URL) throws {
        var raw: [String: Data] = [:]
        let root = directory.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(
            at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else {
            throw CommandFailure("The participant web app's folder \(directory.path) cannot be read.")
        }
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            let path = String(url.standardizedFileURL.path.dropFirst(root.count + 1))
            raw[path] = try Data(contentsOf: url)
        }
        guard raw[Self.serviceWorkerPath] != nil, raw["app/index.html"] != nil else {
            throw CommandFailure("The participant web app in \(directory.path) lacks sw.js or app/index.html.")
        }
        let digests = raw.mapValues { BlobStore.sha256($0) }
        version = String(BlobStore.sha256(Data(digests.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)\n" }.joined().utf8)).prefix(16))

        // Of the message catalogues only English is precached; the worker adds the participant's own
        // (`__APP_CATALOGUES__` names them all), so a first visit does not carry seven languages.
        let catalogues = raw.keys.filter { $0.hasPrefix(Self.catalogueFolder) && $0.hasSuffix(".json") }
            .map { String($0.dropFirst(Self.catalogueFolder.count).dropLast(".json".count)) }.sorted()
        let precached = ["/app", "/manifest.webmanifest"]
            + raw.keys.filter { $0.hasPrefix("app/") && $0 != "app/index.html" && !Self.notForOffline.contains($0) }
                .filter { !$0.hasPrefix(Self.catalogueFolder) || $0 == Self.catalogueFolder + "en.json" }.sorted().map { "/" + $0 }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let listJSON = String(decoding: try encoder.encode(precached), as: UTF8.self)
        let cataloguesJSON = String(decoding: try encoder.encode(catalogues), as: UTF8.self)
        var files: [String: File] = [:]
        for (path, body) in raw {
            var content = body
            if path == Self.serviceWorkerPath {
                let text = String(decoding: body, as: UTF8.self)
                    .replacingOccurrences(of: Self.versionPlaceholder, with: version)
                    .replacingOccurrences(of: Self.fileListPlaceholder, with: listJSON)
                    .replacingOccurrences(of: Self.catalogueListPlaceholder, with: cataloguesJSON)
                content = Data(text.utf8)
            }
            files[path] = File(body: content, contentType: Self.contentType(of: path), etag: "\"\(BlobStore.sha256(content).prefix(32))\"")
        }
        self.files = files
    }

    subscript(path: String) -> File? { files[path] }

    static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "webmanifest": "application/manifest+json; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    /// Whether gzip pays for this file (text; images are compressed already).
    static func isCompressible(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/") || contentType.hasPrefix("application/") || contentType.hasPrefix("image/svg")
    }
}

import Foundation
import MomentaryCore

/// The queue's files. Layout under the queue directory:
///
/// - `items/<sequence>-<id>.json`: one file per waiting upload (photos inline, base64);
/// - `acknowledged-responses.json`: server response ids by idempotency key, for photos;
/// - `dead-letters/<id>.json`: uploads the server refused for good.
///
/// Every file is written with `AtomicFile`, so an item exists on disk whole or not at all.
struct UploadStore: Sendable {
    let directory: URL

    var itemsDirectory: URL { directory.appendingPathComponent("items", isDirectory: true) }
    var deadLettersDirectory: URL { directory.appendingPathComponent("dead-letters", isDirectory: true) }
    var acknowledgementsFile: URL { directory.appendingPathComponent("acknowledged-responses.json") }

    init(directory: URL) throws {
        self.directory = directory
        for folder in [directory, itemsDirectory, deadLettersDirectory] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    // MARK: Items

    func fileURL(for upload: QueuedUpload) -> URL {
        let sequence = String(upload.sequence)
        let padded = String(repeating: "0", count: max(0, 20 - sequence.count)) + sequence
        return itemsDirectory.appendingPathComponent("\(padded)-\(upload.id.uuidString.lowercased()).json")
    }

    func save(_ upload: QueuedUpload) throws {
        try AtomicFile.write(WireCoding.makeEncoder().encode(upload), to: fileURL(for: upload))
    }

    func remove(_ upload: QueuedUpload) throws {
        try AtomicFile.remove(fileURL(for: upload))
    }

    /// Every stored item, plus the files that could not be read. Leftover temporary files (from a
    /// crash during a write) are deleted: they were never acknowledged as stored.
    func loadItems() throws -> (items: [QueuedUpload], unreadable: [(url: URL, error: any Error)]) {
        var items: [QueuedUpload] = []
        var unreadable: [(URL, any Error)] = []
        let decoder = WireCoding.makeDecoder()
        for url in try contents(of: itemsDirectory) {
            let name = url.lastPathComponent
            if name.hasPrefix(AtomicFile.temporaryPrefix) {
                try? FileManager.default.removeItem(at: url)
                continue
            }
            guard name.hasSuffix(".json") else { continue }
            do {
                items.append(try decoder.decode(QueuedUpload.self, from: Data(contentsOf: url)))
            } catch {
                unreadable.append((url, error))
            }
        }
        return (items, unreadable)
    }

    /// Moves a file that is not a valid item aside, so it is neither lost nor retried.
    func quarantine(_ url: URL) throws {
        let target = deadLettersDirectory.appendingPathComponent("unreadable-" + url.lastPathComponent)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.moveItem(at: url, to: target)
    }

    // MARK: Acknowledged responses

    func loadAcknowledgements() throws -> [String: AcknowledgedResponse] {
        guard FileManager.default.fileExists(atPath: acknowledgementsFile.path) else { return [:] }
        let data = try Data(contentsOf: acknowledgementsFile)
        return try WireCoding.makeDecoder().decode([String: AcknowledgedResponse].self, from: data)
    }

    func saveAcknowledgements(_ acknowledgements: [String: AcknowledgedResponse]) throws {
        try AtomicFile.write(WireCoding.makeEncoder().encode(acknowledgements), to: acknowledgementsFile)
    }

    // MARK: Dead letters

    func saveDeadLetter(_ letter: DeadLetter) throws {
        let url = deadLettersDirectory.appendingPathComponent("\(letter.upload.id.uuidString.lowercased()).json")
        try AtomicFile.write(WireCoding.makeEncoder().encode(letter), to: url)
    }

    func loadDeadLetters() throws -> [DeadLetter] {
        let decoder = WireCoding.makeDecoder()
        return try contents(of: deadLettersDirectory)
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasPrefix("unreadable-") }
            .compactMap { try? decoder.decode(DeadLetter.self, from: Data(contentsOf: $0)) }
            .sorted { $0.droppedAt < $1.droppedAt }
    }

    func removeDeadLetter(_ letter: DeadLetter) throws {
        try AtomicFile.remove(deadLettersDirectory.appendingPathComponent("\(letter.upload.id.uuidString.lowercased()).json"))
    }

    private func contents(of folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
    }
}

/// The server's answer to a response upload, kept until the response's photos are sent.
struct AcknowledgedResponse: Codable, Sendable, Hashable {
    var responseID: UUID
    var acknowledgedAt: Date

    enum CodingKeys: String, CodingKey {
        case responseID = "response_id"
        case acknowledgedAt = "acknowledged_at"
    }
}

import Fluent
import Foundation
import MomentaryCore

/// A participant's responses as Reporter's files (seed 002): one daily file per local day, each
/// response a snapshot with its context (battery, connection, steps, sound, location with place
/// and country, weather, report impetus) and its answers in Reporter's shapes
/// (`ReporterAnswerMapping`), and the full export `reporter-export.json` with every snapshot.
/// Each response is written at the zone it was given in. A response imported from Reporter is
/// written back as its file had it (`ReporterKept`), in the day file it came from. A response's
/// photos are copied beside the files (`photos/<id>.jpg`) and listed in its `photoSet`, one object
/// per photo naming that file (the server strips EXIF on upload, so there is none to give).
/// Reporter has no place for audio recordings or for Momentary's beep links and timings.
enum ReporterExporter {
    /// Responses read at once: bounds memory for participants with years of answers.
    static let pageSize = 500
    /// Idempotency keys of responses imported from Reporter start with this, followed by
    /// Reporter's own identifier of the snapshot, which export writes back.
    static let importedKeyPrefix = "reporter:"

    struct Summary: Equatable {
        var files = 0
        var snapshots = 0
        var photos = 0
    }

    /// Where a photo is copied to, relative to the export's folder.
    static func photoPath(_ photoID: UUID) -> String { "photos/\(photoID.uuidString.lowercased()).jpg" }

    /// Writes the day files and the full export into `directory` (created if missing), each whole
    /// or not at all, and copies the photos their snapshots list from `blobs`.
    static func export(participant: Participant, to directory: URL, blobs: BlobStore, on db: any Database) async throws -> Summary {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var summary = Summary()
        var written: [URL] = []
        let members = try await days(of: participant, on: db, copyingPhotosTo: directory, from: blobs) { day, snapshots, members, photos in
            var file = members ?? [:]
            file["snapshots"] = .array(snapshots)
            let url = directory.appendingPathComponent(ReporterDay.fileName(for: day))
            try ReporterFullExport.encoded(.object(file)).write(to: url, options: .atomic)
            written.append(url)
            summary.files += 1
            summary.snapshots += snapshots.count
            summary.photos += photos
        }
        try ReporterFullExport.write(joining: written, members: members, to: directory.appendingPathComponent(ReporterDay.fullExportFileName))
        return summary
    }

    /// Calls `body` once per day file, in order, with that day's snapshots, the file's other
    /// top-level members as imported, and the number of photos copied into `directory` for it. Returns the top-level members for the full export: an imported full export's,
    /// else the last imported day file's.
    static func days(
        of participant: Participant, on db: any Database, copyingPhotosTo directory: URL, from blobs: BlobStore,
        _ body: (LocalDate, [JSONValue], [String: JSONValue]?, Int) async throws -> Void
    ) async throws -> [String: JSONValue]? {
        let participantZone = TimeZone(identifier: participant.timeZone) ?? TimeZone(identifier: "UTC")!
        var current: (day: LocalDate, snapshots: [JSONValue], members: [String: JSONValue]?, photos: Int)?
        var fullMembers: [String: JSONValue]?
        var lastDayMembers: [String: JSONValue]?
        var pages = ReporterResponsePages(participantID: try participant.requireID())
        while let page = try await pages.next(on: db) {
            for response in page.responses {
                let zone = response.timeZone.flatMap(TimeZone.init(identifier:)) ?? participantZone
                let kept = ReporterKept.decode(response.keptAsIs)
                let written = try await page.written(response, zone: zone, copyingPhotosTo: directory, from: blobs, on: db)
                let json = kept?.restore(written) ?? written.json
                if let members = kept?.fileMembers?[ReporterDay.fullExportFileName] { fullMembers = members }
                // An imported report goes back into the day file it came from; a westward move can
                // give a later answer an earlier local date: it joins the open day's file rather
                // than writing that earlier day's file a second time.
                let given = kept.flatMap { ReporterDay.day(fromFileName: $0.file) } ?? WallClock.localDate(of: response.startedAt, in: zone)
                let day = current.map { max(given, $0.day) } ?? given
                if let open = current, open.day != day {
                    try await body(open.day, open.snapshots, open.members, open.photos)
                    current = nil
                }
                var members = current?.members
                if let keptMembers = kept?.fileMembers?[ReporterDay.fileName(for: day)] {
                    members = keptMembers
                    lastDayMembers = keptMembers
                }
                current = (day, (current?.snapshots ?? []) + [json], members, (current?.photos ?? 0) + written.copiedPhotos)
            }
        }
        if let open = current { try await body(open.day, open.snapshots, open.members, open.photos) }
        return fullMembers ?? lastDayMembers
    }
}

/// `reporter-export.json`: the day files' snapshots in one file, read back a day at a time (so
/// memory holds one day), with the top-level members of the full export that was imported.
enum ReporterFullExport {
    static func write(joining days: [URL], members: [String: JSONValue]?, to destination: URL) throws {
        try AtomicFile.write(to: destination, creatingFolder: true) { handle in
            try handle.write(contentsOf: Data("{\n  \"snapshots\" : [".utf8))
            var count = 0
            for day in days {
                let file = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: day))
                for snapshot in file.objectValue?["snapshots"]?.arrayValue ?? [] {
                    try handle.write(contentsOf: Data((count == 0 ? "\n" : ",\n").utf8) + encoded(snapshot))
                    count += 1
                }
            }
            try handle.write(contentsOf: Data("\n  ]".utf8))
            for (key, value) in (members ?? [:]).sorted(by: { $0.key < $1.key }) where key != "snapshots" {
                try handle.write(contentsOf: Data(",\n  ".utf8) + encoded(.string(key)) + Data(" : ".utf8) + encoded(value))
            }
            try handle.write(contentsOf: Data("\n}\n".utf8))
        }
    }

    /// Pretty-printed JSON with sorted keys, as the day files are written.
    static func encoded(_ value: JSONValue) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}

import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import ZIPFoundation

@Suite("Beiwe data import and export")
struct BeiweDataImportTests {
    /// Fixtures/Beiwe/download: an iOS patient with all ten streams, an Android patient (FORMATS.md §5).
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Beiwe/download")
    static let surveyID = "Xv1pQm8cR2nT7kLs4bW9dZ3e"

    /// A copy of the fixture folder to change, with what Momentary does not import beside it.
    static func download(in directory: URL) throws -> URL {
        let copy = directory.appendingPathComponent("download")
        try FileManager.default.copyItem(at: fixture, to: copy)
        let calls = copy.appendingPathComponent("k7d2mq4x/calls")
        try FileManager.default.createDirectory(at: calls, withIntermediateDirectories: true)
        try Data("timestamp,UTC time,hashed phone number,call type,duration in seconds\n".utf8)
            .write(to: calls.appendingPathComponent("2025-03-08 14_00_00+00_00.csv"))
        try Data("{}".utf8).write(to: copy.appendingPathComponent("registry"))
        return copy
    }

    /// A data directory with the study city-moods, for commands run with `--data`.
    static func dataDirectory() async throws -> (URL, Configuration) {
        let data = try await CommandData.make("momentary-beiwe-data") { app, _ in _ = try await ExportFixture.make(on: app.db) }
        return (data.directory, data.configuration)
    }

    /// Participants, batches, hours and blobs stored.
    static func counts(_ configuration: Configuration) async throws -> [Int] {
        try await AppFactory.withApp(configuration) { app in
            [
                try await Participant.query(on: app.db).count(), try await StreamBatch.query(on: app.db).count(),
                try await StreamHour.query(on: app.db).count(), try await Blob.query(on: app.db).count(),
            ]
        }
    }

    /// Every file under `folder`, by path relative to it.
    static func files(under folder: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        for path in FileManager.default.subpaths(atPath: folder.path) ?? [] {
            var isFolder: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[path] = try String(contentsOf: url, encoding: .utf8)
        }
        return files
    }

    /// A CSV's header (names trimmed, as Beiwe's current backend does) and rows, by value.
    static func table(_ text: String) -> [[String]] {
        let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" }
        guard let header = lines.first else { return [] }
        return [header.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }]
            + lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The fixture's files of one folder, as one table: one header, every file's rows in file order.
    static func joined(_ files: [(String, String)]) -> [[String]] {
        let tables = files.sorted { $0.0 < $1.0 }.map { table($0.1) }
        return Array(tables.first?.prefix(1) ?? []) + tables.flatMap { $0.dropFirst() }
    }

    @Test("a Beiwe download with all ten streams becomes one never-beeped participant per patient, what Momentary has no stream for is listed, and a second import stores nothing")
    func importTwice() async throws {
        let (directory, configuration) = try await Self.dataDirectory()
        let download = try Self.download(in: directory)
        let data = ["--data", directory.path]

        let imported = await runCommand(["import", "beiwe-data", "--study", "city-moods", download.path] + data)
        #expect(imported.code == 0, "\(imported.errors)")
        #expect(imported.output.contains("Imported 20 files (80 rows) for new participants k7d2mq4x, p3w9az1c."), "\(imported.output)")
        #expect(imported.output.contains("  k7d2mq4x/calls: 1 file, Momentary has no calls stream"), "\(imported.output)")
        #expect(imported.output.contains("  registry: "), "\(imported.output)")

        try await AppFactory.withApp(configuration) { app in
            let participants = try await Participant.query(on: app.db).sort(\.$label).all()
            #expect(participants.map(\.label) == ["k7d2mq4x", "p3w9az1c"])
            #expect(participants.allSatisfy { !$0.active && $0.pushChannel == "none" && $0.plannedThrough == nil })
            #expect(participants.map(\.registeredAt) == [
                Date(timeIntervalSince1970: 1_741_442_400), Date(timeIntervalSince1970: 1_741_449_600),
            ], "registered at their first file's time")
            let batches = try await StreamBatch.query(on: app.db).all()
            #expect(Set(batches.map(\.stream)) == Set(PassiveStream.allCases.map(\.rawValue)))
            let android = batches.filter { $0.format == "Android" }.map(\.stream).sorted()
            #expect(android == ["gyro", "power_state", "survey_timings"])
            let surveys = batches.filter { $0.stream.hasPrefix("survey_") }
            #expect(surveys.count == 6 && surveys.allSatisfy { $0.beiweSurveyID == Self.surveyID })
            #expect(batches.filter { !$0.stream.hasPrefix("survey_") }.allSatisfy { $0.beiweSurveyID == nil })
            let answers = try #require(batches.first { $0.stream == "survey_answers" && $0.rowCount == 12 })
            #expect(answers.receivedAt == Date(timeIntervalSince1970: 1_741_443_875), "filed under its file name's time, 14:24:35")
        }

        let before = try await Self.counts(configuration)
        #expect(before == [2, 20, 21, 20])
        let again = await runCommand(["import", "beiwe-data", "--study", "city-moods", download.path] + data)
        #expect(again.code == 0, "\(again.errors)")
        #expect(again.output.contains("Imported 0 files (0 rows) for participants k7d2mq4x, p3w9az1c already in the study; 20 files were already there."),
                "\(again.output)")
        #expect(try await Self.counts(configuration) == before, "importing twice stores nothing new")

        // A file changed since: refused by name, nothing else stored.
        let gps = download.appendingPathComponent("k7d2mq4x/gps/2025-03-08 15_00_00+00_00.csv")
        try Data((try String(contentsOf: gps, encoding: .utf8) + "\n1741446700019,2025-03-08T15:11:40.019,42.35,-71.07,9.8,65").utf8).write(to: gps)
        let changed = await runCommand(["import", "beiwe-data", "--study", "city-moods", download.path] + data)
        #expect(changed.code == 1 && changed.errors.contains("k7d2mq4x/gps/2025-03-08 15_00_00+00_00.csv: was imported before with other content"),
                "\(changed.errors)")
        #expect(try await Self.counts(configuration) == before)
    }

    @Test("a bad file refuses the whole import with file, line and column; --skip-bad stores the rest and lists it")
    func badFiles() async throws {
        let (directory, configuration) = try await Self.dataDirectory()
        let download = try Self.download(in: directory)
        let data = ["--data", directory.path]
        let gps = download.appendingPathComponent("k7d2mq4x/gps/2025-03-08 14_00_00+00_00.csv")
        try Data(try String(contentsOf: gps, encoding: .utf8).replacingOccurrences(of: "42.33961002387341", with: "north").utf8).write(to: gps)
        let gyro = download.appendingPathComponent("p3w9az1c/gyro/2025-03-08 16_00_00+00_00.csv")
        try Data(try String(contentsOf: gyro, encoding: .utf8).replacingOccurrences(of: "16:05:09.898", with: "16:05:10.898").utf8).write(to: gyro)
        let timings = download.appendingPathComponent("p3w9az1c/survey_timings/\(Self.surveyID)/2025-03-08 16_00_00+00_00.csv")
        try Data(try String(contentsOf: timings, encoding: .utf8).replacingOccurrences(of: "hit submit,\(Self.surveyID)", with: "hit submit,other").utf8)
            .write(to: timings)
        try Data().write(to: download.appendingPathComponent("p3w9az1c/gps/notes.txt"))

        let refused = await runCommand(["import", "beiwe-data", "--study", "city-moods", download.path] + data)
        #expect(refused.code == 1)
        let problems = [
            "k7d2mq4x/gps/2025-03-08 14_00_00+00_00.csv: Line 3, column “latitude”: “north” is not a number.",
            "p3w9az1c/gyro/2025-03-08 16_00_00+00_00.csv: Line 3, column “UTC time”: “2025-03-08T16:05:10.898” is not the row's timestamp",
            "p3w9az1c/survey_timings/\(Self.surveyID)/2025-03-08 16_00_00+00_00.csv: Line 7, column “survey id”: “other” is not the survey",
            "p3w9az1c/gps/notes.txt: is not named as Beiwe names gps files",
        ]
        for problem in problems { #expect(refused.errors.contains(problem), "\(refused.errors)") }
        #expect(refused.errors.contains("Nothing was imported: 4 problems; --skip-bad would import the 17 good files:"), "\(refused.errors)")
        #expect(try await Self.counts(configuration) == [0, 0, 0, 0])
        let blobs = directory.appendingPathComponent("blobs")
        #expect(((try? FileManager.default.subpathsOfDirectory(atPath: blobs.path)) ?? []).allSatisfy { !$0.hasSuffix(".gz") })

        let skipping = await runCommand(["import", "beiwe-data", "--study", "city-moods", "--skip-bad", download.path] + data)
        #expect(skipping.code == 0, "\(skipping.errors)")
        #expect(skipping.output.contains("Imported 17 files"), "\(skipping.output)")
        #expect(skipping.output.contains("Skipped, with problems:"), "\(skipping.output)")
        for problem in problems { #expect(skipping.output.contains("  " + problem), "\(skipping.output)") }
        #expect(try await Self.counts(configuration)[1] == 17)
    }

    @Test("imported data exports in the phone's format, and with --beiwe-download as the download it came from, row for row")
    func exportBothFormats() async throws {
        let (directory, _) = try await Self.dataDirectory()
        let download = try Self.download(in: directory)
        let data = ["--data", directory.path]
        let imported = await runCommand(["import", "beiwe-data", "--study", "city-moods", download.path] + data)
        #expect(imported.code == 0, "\(imported.errors)")
        let streams = PassiveStream.allCases.flatMap { ["--stream", $0.rawValue] }
        let fixture = try Self.files(under: Self.fixture)
        // One table per participant, stream and survey folder.
        let folders = Dictionary(grouping: fixture.map { ($0.key, $0.value) }) { $0.0.split(separator: "/").dropLast().joined(separator: "/") }

        // Beiwe's download layout and format: the same folders, each file one UTC hour of rows.
        let out = directory.appendingPathComponent("beiwe-out")
        let beiwe = await runCommand(["export", "streams", "--study", "city-moods", "--beiwe-download", "--output", out.path] + streams + data)
        #expect(beiwe.code == 0, "\(beiwe.errors)")
        let exported = try Self.files(under: out)
        let exportedFolders = Dictionary(grouping: exported.map { ($0.key, $0.value) }) { $0.0.split(separator: "/").dropLast().joined(separator: "/") }
        #expect(Set(exportedFolders.keys) == Set(folders.keys))
        for (folder, files) in folders {
            #expect(Self.joined(exportedFolders[folder] ?? []) == Self.joined(files), "\(folder)")
            // Each row in the file of its own UTC hour, as Beiwe's backend bins them; survey_answers by when they arrived.
            for (path, text) in exportedFolders[folder] ?? [] where !folder.contains("survey_answers") {
                let hour = try #require(BeiweDownloadFolder.time(ofFileName: String(path.split(separator: "/").last!))).seconds
                #expect(Self.table(text).dropFirst().allSatisfy { Int64($0[0])! / 3_600_000 == Int64(hour) / 3600 }, "\(path)")
                #expect(!text.hasSuffix("\n"), "Beiwe's files end without a line break")
            }
        }
        #expect(Set(exported.keys).subtracting(fixture.keys) == ["k7d2mq4x/survey_timings/\(Self.surveyID)/2025-03-10 14_00_00+00_00.csv"],
                "the fixture's one row past its file's hour (an expiry at 14:00:00.561) gets its own hour's file")

        // The phone's format: the download's columns taken out, every file of a folder in one CSV.
        let zip = directory.appendingPathComponent("phone.zip")
        let phone = await runCommand(["export", "streams", "--study", "city-moods", "--output", zip.path] + streams + data)
        #expect(phone.code == 0, "\(phone.errors)")
        let entries = try StreamExportTests.entries(of: Archive(url: zip, accessMode: .read))
        #expect(entries.count == 20, "all ten streams of both participants, empty ones with their header")
        for (folder, files) in folders {
            let parts = folder.split(separator: "/")
            let stream = try #require(PassiveStream(rawValue: String(parts[1])))
            var expected = Self.joined(files)
            if stream.hasTimestamps {
                expected = expected.map { row in
                    var row = row
                    row.remove(at: 1)
                    if stream == .surveyTimings { row.remove(at: 2) }
                    return row
                }
            }
            let entry = try #require(entries["\(parts[0])/\(stream.rawValue).csv"])
            #expect(Self.table(entry) == expected, "\(folder)")
        }
        #expect(entries["p3w9az1c/gyro.csv"]?.hasPrefix("timestamp,accuracy,x,y,z\n") == true, "Android's gyro keeps its accuracy")
        #expect(entries["k7d2mq4x/gyro.csv"]?.hasPrefix("timestamp,x,y,z\n") == true)

        // A patient id names the participant; --beiwe-download writes a new or empty folder only.
        let one = await runCommand(["export", "streams", "--study", "city-moods", "--participant", "p3w9az1c", "--stream", "gyro"] + data)
        #expect(one.code == 0 && one.output + "\n" == entries["p3w9az1c/gyro.csv"], "\(one.errors)")
        for output in [[], ["--output", out.path], ["--output", zip.path]] {
            let refused = await runCommand(["export", "streams", "--study", "city-moods", "--stream", "gps", "--beiwe-download"] + output + data)
            #expect(refused.code == 2 && refused.errors.contains("folder"), "\(output): \(refused.errors)")
        }
    }

    @Test("the import and the download export run on the suite's database (PostgreSQL in CI) as on the commands' SQLite")
    func onTheTestDatabase() async throws {
        try await withTestApp { app, configuration in
            let blobs = BlobStore(dataDirectory: configuration.dataDirectory)
            let fixture = try await ExportFixture.make(on: app.db)
            let first = try await BeiweDataImport.run(Self.fixture, into: fixture.study, skipBad: false, blobs: blobs, on: app.db)
            #expect(first.storedFiles == 20 && first.createdParticipants == ["k7d2mq4x", "p3w9az1c"])
            let again = try await BeiweDataImport.run(Self.fixture, into: fixture.study, skipBad: false, blobs: blobs, on: app.db)
            #expect(again.storedFiles == 0 && again.alreadyThere == 20 && again.existingParticipants == ["k7d2mq4x", "p3w9az1c"])
            let selection = try await StreamExportSelection.resolve(
                participants: [], streams: PassiveStream.allCases.map(\.rawValue), in: fixture.study, on: app.db)
            let out = configuration.dataDirectory.appendingPathComponent("beiwe-out")
            let written = try await BeiweDownloadExport.write(selection, from: nil, end: nil, to: out, blobs: blobs, on: app.db)
            #expect(written.rows == 80 && written.files == 21)
            #expect(Self.joined(Array(try Self.files(under: out.appendingPathComponent("p3w9az1c/survey_timings")))) == Self.joined(
                Array(try Self.files(under: Self.fixture.appendingPathComponent("p3w9az1c/survey_timings")))))
        }
    }
}

import Foundation
import MomentaryCore

/// One Reporter file as read: what Momentary reads of it, and its JSON as the file has it.
struct ReporterSourceFile {
    let name: String
    let day: ReporterDay
    /// The top-level members other than `snapshots` (such as `questions`).
    let members: [String: JSONValue]
    /// Each snapshot's JSON, in file order.
    let snapshotJSON: [[String: JSONValue]]
}

/// A report to import: the snapshot, its JSON, and where it was read (for messages and to keep).
struct ReporterReport {
    let snapshot: ReporterSnapshot
    let json: [String: JSONValue]
    let file: String
    /// Its position among the file's snapshots.
    let index: Int
    /// The top-level members of the files whose first report this is, by file name.
    var fileMembers: [String: [String: JSONValue]] = [:]

    /// `2015-11-20-reporter-export.json: snapshots[3]`, for messages.
    var place: String { "\(file): snapshots[\(index)]" }
}

/// Reads what `import reporter` is given: a folder of daily files and/or the full export, or one
/// file of either kind. A file named like a daily file is read as one; any other file given by
/// name is read as a full export. In a folder, other files are left alone.
enum ReporterFiles {
    static func read(_ path: URL) throws(ReporterImporter.Refusal) -> [ReporterSourceFile] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) else {
            throw ReporterImporter.Refusal(problems: ["\(path.path) does not exist."])
        }
        let urls: [URL]
        if isFolder.boolValue {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path.path)
            } catch {
                throw ReporterImporter.Refusal(problems: ["Cannot read the folder \(path.path): \(error.localizedDescription)"])
            }
            // Day files first, so a report also in the full export is kept with its day's file.
            let days = names.filter { ReporterDay.day(fromFileName: $0) != nil }.sorted()
            let full = names.filter { $0 == ReporterDay.fullExportFileName }
            guard !(days + full).isEmpty else {
                throw ReporterImporter.Refusal(problems: [
                    "\(path.path) holds no Reporter files (named YYYY-MM-DD-reporter-export.json or \(ReporterDay.fullExportFileName)).",
                ])
            }
            urls = (days + full).map { path.appendingPathComponent($0) }
        } else {
            urls = [path]
        }
        var files: [ReporterSourceFile] = []
        var problems: [String] = []
        for url in urls {
            do {
                files.append(try readFile(url))
            } catch let error as ReporterFormatError {
                problems.append(error.description)
            } catch {
                problems.append("\(url.lastPathComponent): cannot be read: \(error.localizedDescription)")
            }
        }
        guard problems.isEmpty else { throw ReporterImporter.Refusal(problems: problems) }
        return files
    }

    private static func readFile(_ url: URL) throws -> ReporterSourceFile {
        let name = url.lastPathComponent
        let data = try Data(contentsOf: url)
        let day = try ReporterDay.decode(data, fileName: name)
        // Read a second time as plain JSON, to keep every member as the file has it.
        var members = (try JSONDecoder().decode(JSONValue.self, from: data)).objectValue ?? [:]
        let snapshots = members.removeValue(forKey: "snapshots")?.arrayValue?.compactMap(\.objectValue) ?? []
        return ReporterSourceFile(name: name, day: day, members: members, snapshotJSON: snapshots)
    }

    /// Every report once, in time order: a report in several files (a day file and the full
    /// export) is the same report when its JSON is the same; two different reports under one
    /// identifier are refused, naming both places.
    static func reports(in files: [ReporterSourceFile]) throws(ReporterImporter.Refusal) -> [ReporterReport] {
        var reports: [ReporterReport] = []
        var positionByKey: [String: Int] = [:]
        var problems: [String] = []
        for file in files {
            for (index, snapshot) in file.day.snapshots.enumerated() {
                let report = ReporterReport(snapshot: snapshot, json: file.snapshotJSON[index], file: file.name, index: index)
                let key = ReporterImporter.idempotencyKey(snapshot)
                if let position = positionByKey[key] {
                    if reports[position].json != report.json {
                        problems.append("\(report.place) is a different report with the identifier “\(key.dropFirst(ReporterImporter.keyPrefix.count))” of \(reports[position].place); each report must be one of a kind.")
                    }
                    if index == 0 { reports[position].fileMembers[file.name] = file.members }
                    continue
                }
                positionByKey[key] = reports.count
                reports.append(report)
                if index == 0 { reports[reports.count - 1].fileMembers[file.name] = file.members }
            }
        }
        guard problems.isEmpty else { throw ReporterImporter.Refusal(problems: problems) }
        return reports.enumerated().sorted { ($0.element.snapshot.date.instant, $0.offset) < ($1.element.snapshot.date.instant, $1.offset) }.map(\.element)
    }
}

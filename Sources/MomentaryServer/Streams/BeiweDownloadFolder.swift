import Foundation
import MomentaryCore

/// The files of a Beiwe data download, laid out as the backend's download and its Python tools do
/// (FORMATS.md §2): `<patient id>/<stream>/<YYYY-MM-DD HH_MM_SS+00_00>.csv`, the survey streams one
/// folder deeper under the survey's id, a repeated name with `_2`, `_3` before `.csv`, and an
/// optional `registry` file at the root. Everything found is either a file to import, a stream
/// Momentary has none of (listed, never dropped in silence), or a problem.
struct BeiweDownloadFolder {
    struct File {
        let patientID: String
        let stream: PassiveStream
        let surveyID: String?
        /// The UTC second the file is named after, and its repeat (1 without a `_n` suffix).
        let seconds: Int
        let repeatNumber: Int
        /// `<patient id>/<stream>/…`, as the problems name it.
        let path: String
        let url: URL

        /// Stable for the file's place in any download of the same data, so an import run twice stores it once.
        var idempotencyKey: String {
            let time = TimestampText.beiweFileTime(seconds).replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "+00_00", with: "Z")
            return "beiwe:" + (surveyID.map { $0 + ":" } ?? "") + time + (repeatNumber > 1 ? "_\(repeatNumber)" : "")
        }
    }

    /// A file or folder that cannot be imported, and why: the line and column, for a file's content.
    struct Problem: Error, CustomStringConvertible {
        let path: String
        var line: Int? = nil
        var column: String? = nil
        let message: String

        /// The messages of a file's lines already name the line and the column.
        var description: String { path + ": " + message }
    }

    private(set) var files: [File] = []
    /// What is not imported and why, one line per folder or file.
    private(set) var notImported: [String] = []
    private(set) var problems: [Problem] = []

    /// Beiwe's streams Momentary has no stream for (constants/data_stream_constants.py).
    static let streamsWithoutMomentaryStream: Set<String> = [
        "app_log", "audio_recordings", "bluetooth", "calls", "identifiers", "ios_log", "texts", "wifi",
    ]

    init(root: URL) throws {
        for name in try Self.entries(of: root) {
            let url = root.appendingPathComponent(name)
            guard Self.isFolder(url) else {
                notImported.append(name == "registry"
                    ? "registry: Beiwe's list of the files it sent, nothing to import"
                    : "\(name): a file outside any patient's folder")
                continue
            }
            guard Self.isPatientID(name) else {
                problems.append(Problem(path: name, message: "is not a Beiwe patient id (8 lowercase letters or digits), so not a patient's folder."))
                continue
            }
            for streamName in try Self.entries(of: url) {
                try addStream(streamName, patientID: name, at: url.appendingPathComponent(streamName))
            }
        }
        files.sort { ($0.patientID, $0.path) < ($1.patientID, $1.path) }
    }

    private mutating func addStream(_ name: String, patientID: String, at url: URL) throws {
        let path = "\(patientID)/\(name)"
        guard let stream = PassiveStream(rawValue: name) else {
            let count = Self.isFolder(url) ? try Self.fileCount(in: url) : 1
            let why = Self.streamsWithoutMomentaryStream.contains(name) ? "Momentary has no \(name) stream" : "not a Beiwe stream Momentary knows"
            notImported.append("\(path): \(count) file\(count == 1 ? "" : "s"), \(why)")
            return
        }
        guard Self.isFolder(url) else {
            problems.append(Problem(path: path, message: "should be a folder of \(name) files."))
            return
        }
        guard stream == .surveyAnswers || stream == .surveyTimings else {
            for fileName in try Self.entries(of: url) { addFile(fileName, patientID: patientID, stream: stream, surveyID: nil, in: url, path: path) }
            return
        }
        for surveyID in try Self.entries(of: url) {
            let folder = url.appendingPathComponent(surveyID)
            guard Self.isFolder(folder), Self.isBeiweID(surveyID) else {
                problems.append(Problem(path: "\(path)/\(surveyID)", message: "should be a folder named after a survey's id (letters and digits) holding its \(name) files."))
                continue
            }
            for fileName in try Self.entries(of: folder) {
                addFile(fileName, patientID: patientID, stream: stream, surveyID: surveyID, in: folder, path: "\(path)/\(surveyID)")
            }
        }
    }

    private mutating func addFile(_ name: String, patientID: String, stream: PassiveStream, surveyID: String?, in folder: URL, path: String) {
        let filePath = "\(path)/\(name)"
        if name.hasSuffix(".zst") {
            problems.append(Problem(path: filePath, message: "is compressed with zstd; decompress the download first (unzstd --rm -r FOLDER)."))
            return
        }
        guard let (seconds, repeatNumber) = Self.time(ofFileName: name) else {
            problems.append(Problem(path: filePath, message: "is not named as Beiwe names \(stream.rawValue) files (YYYY-MM-DD HH_MM_SS+00_00.csv, or …_2.csv for a repeat)."))
            return
        }
        files.append(File(
            patientID: patientID, stream: stream, surveyID: surveyID, seconds: seconds, repeatNumber: repeatNumber,
            path: filePath, url: folder.appendingPathComponent(name)))
    }

    /// `2025-03-08 14_00_00+00_00.csv` → its second and 1; `…+00_00_2.csv` → 2.
    static func time(ofFileName name: String) -> (seconds: Int, repeatNumber: Int)? {
        guard name.hasSuffix(".csv") else { return nil }
        var stem = String(name.dropLast(4))
        var repeatNumber = 1
        if let underscore = stem.lastIndex(of: "_"), !stem.hasSuffix("+00_00"),
           let number = Int(stem[stem.index(after: underscore)...]), number >= 2 {
            repeatNumber = number
            stem = String(stem[..<underscore])
        }
        return TimestampText.seconds(ofBeiweFileTime: stem).map { ($0, repeatNumber) }
    }

    /// Beiwe's patient ids: 8 lowercase letters or digits (they become participant labels).
    static func isPatientID(_ name: String) -> Bool {
        name.count == 8 && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    private static func isBeiweID(_ name: String) -> Bool {
        (1...64).contains(name.count) && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII }
    }

    private static func isFolder(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }

    /// A folder's entries, sorted; hidden ones (`.DS_Store`) left out.
    private static func entries(of url: URL) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw Problem(path: url.path, message: "cannot be read: \(error.localizedDescription)")
        }
    }

    private static func fileCount(in url: URL) throws -> Int {
        (FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? [])
            .filter { !isFolder(url.appendingPathComponent($0)) }.count
    }
}

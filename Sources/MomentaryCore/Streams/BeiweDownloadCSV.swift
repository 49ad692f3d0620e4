import Foundation

/// A stream file as a Beiwe data download holds it, and back. The backend adds to what the phone
/// uploaded (onnela-lab/beiwe-backend `libs/file_processing/data_fixes.py`; FORMATS.md §2): a
/// `UTC time` column after `timestamp` in every file with times, and in survey_timings a
/// `survey id` column after `question id` holding the survey the folder is named after. Old
/// downloads keep the spaces Android puts after the header's commas. survey_answers files are the
/// phone's as uploaded. Beiwe never quotes (the apps replace commas in texts); the phone's format may.
public enum BeiweDownloadCSV {
    /// Where `survey id` sits in a survey_timings row of the phone's format (after `question id`).
    static let surveyIDPhonePosition = 2

    /// The phone's CSV of a download file: both added columns taken out (each checked against
    /// what it must hold: the row's own time, the folder's survey) and the header's names trimmed.
    /// Lines stay where they are, so the validator's problems name the download file's lines.
    /// Throws the first problem, by line and by the download's column name.
    public static func phoneCSV(fromDownload text: String, stream: PassiveStream, surveyID: String?) throws(StreamBatchProblem) -> String {
        var records = StreamCSV.records(Substring(text))
        guard let header = records.first?.text, !header.isEmpty else {
            throw StreamBatchProblem(line: 1, column: nil, message: "The file is empty; its first line must be the \(stream.rawValue) header.")
        }
        var names = header.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: [" "]) }
        if stream.hasTimestamps {
            try expectColumn("UTC time", at: 1, in: names, stream: stream)
            names.remove(at: 1)
            if stream == .surveyTimings {
                try expectColumn("survey id", at: surveyIDPhonePosition, in: names, stream: stream)
                names.remove(at: surveyIDPhonePosition)
            }
        }
        records[0].text = Substring(names.joined(separator: ","))
        if stream.hasTimestamps {
            for number in records.indices.dropFirst() where !records[number].text.isEmpty {
                records[number].text = try phoneRow(records[number].text, line: records[number].line, stream: stream, surveyID: surveyID)
            }
        }
        return records.map(\.text).joined(separator: "\n")
    }

    /// The download's header for the phone's (`timestamp,latitude,…` → `timestamp,UTC time,latitude,…`).
    public static func downloadHeader(ofPhoneHeader header: some StringProtocol, stream: PassiveStream) -> String {
        downloadRow(header, stream: stream, utcTime: "UTC time", surveyID: "survey id")
    }

    /// A row of the phone's format (no line ending) as the download writes it.
    public static func downloadRow(_ row: some StringProtocol, stream: PassiveStream, surveyID: String) -> String {
        guard stream.hasTimestamps else { return String(row) }
        let time = Int64(row.prefix { $0 != "," }) ?? 0
        return downloadRow(row, stream: stream, utcTime: TimestampText.utcMilliseconds(time), surveyID: surveyID)
    }

    private static func downloadRow(_ row: some StringProtocol, stream: PassiveStream, utcTime: String, surveyID: String) -> String {
        guard stream.hasTimestamps else { return String(row) }
        var fields = StreamCSV.fields(of: Substring(row)).map(String.init)
        if stream == .surveyTimings { fields.insert(surveyID, at: min(surveyIDPhonePosition, fields.count)) }
        fields.insert(utcTime, at: min(1, fields.count))
        return fields.joined(separator: ",")
    }

    private static func phoneRow(_ row: Substring, line: Int, stream: PassiveStream, surveyID: String?) throws(StreamBatchProblem) -> Substring {
        var fields = StreamCSV.fieldRanges(of: row)
        guard fields.count > 1 else {
            throw StreamBatchProblem(line: line, column: "UTC time", message: "Line \(line) has no “UTC time” column after its timestamp.")
        }
        let given = row[fields[1]]
        if let time = Int64(row[fields[0]]), given != TimestampText.utcMilliseconds(time) {
            throw StreamBatchProblem(
                line: line, column: "UTC time",
                message: "Line \(line), column “UTC time”: “\(given.prefix(40))” is not the row's timestamp \(time) in UTC (\(TimestampText.utcMilliseconds(time))).")
        }
        fields.remove(at: 1)
        if stream == .surveyTimings {
            guard fields.count > surveyIDPhonePosition else {
                throw StreamBatchProblem(line: line, column: "survey id", message: "Line \(line) has no “survey id” column after its question id.")
            }
            let id = row[fields[surveyIDPhonePosition]]
            guard String(id) == surveyID else {
                throw StreamBatchProblem(
                    line: line, column: "survey id",
                    message: "Line \(line), column “survey id”: “\(id.prefix(40))” is not the survey of the file's folder, “\(surveyID ?? "")”.")
            }
            fields.remove(at: surveyIDPhonePosition)
        }
        return Substring(fields.map { row[$0] }.joined(separator: ","))
    }

    private static func expectColumn(_ name: String, at position: Int, in names: [String], stream: PassiveStream) throws(StreamBatchProblem) {
        guard position < names.count, names[position] == name else {
            let found = position < names.count ? "“\(names[position])”" : "nothing"
            throw StreamBatchProblem(
                line: 1, column: name,
                message: "A downloaded \(stream.rawValue) file has “\(name)” as column \(position + 1) of its first line, but this one has \(found).")
        }
    }
}

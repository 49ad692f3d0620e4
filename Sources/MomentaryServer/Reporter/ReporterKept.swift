import Foundation
import MomentaryCore

/// What a Reporter report said beyond what Momentary stores in its columns, kept with its response
/// (`responses.kept_as_is`, M048) so that `export reporter` gives the file back as it was read:
/// Reporter's state flags, `firedNotification`, the `altitude` object, `photoSet`, placemark parts,
/// nested identifiers, token and note objects, a location answer's own fix, keys no version of
/// this code knows, and the form of each value Momentary re-formats (a numeric date, an option
/// order). Each part is a JSON merge patch (`JSONMergePatch`) over what Momentary writes itself, so
/// it holds the file's own keys and values and only where they differ.
struct ReporterKept: Codable, Equatable {
    static let sourceName = "reporter"

    /// The app the report came from; always `reporter`.
    var source = Self.sourceName
    /// The file the report was read from.
    var file: String
    /// Each file's top-level members other than `snapshots` (such as `questions`) by file name,
    /// kept with the first report imported from that file.
    var fileMembers: [String: [String: JSONValue]]?
    /// The patch from the snapshot Momentary writes to the file's, its answers aside.
    var snapshot: JSONValue?
    /// The file's answers in the file's order, each by the question it is stored under with the
    /// patch from Momentary's form of it to the file's; nil when order and forms are the same.
    var responses: [Response]?

    struct Response: Codable, Equatable {
        var question: String
        var patch: JSONValue?
    }

    /// What the file said of a report, compared with what Momentary writes of it (`written`);
    /// `questions` names the question each of the file's answers is stored under, in file order.
    init(file: String, fileMembers: [String: [String: JSONValue]]?, original: [String: JSONValue], written: ReporterWrittenSnapshot, questions: [String]) {
        self.file = file
        self.fileMembers = fileMembers
        var members = original
        let hadResponses = members.removeValue(forKey: Self.responsesKey) != nil
        var patch = JSONMergePatch.difference(from: .object(written.members), to: .object(members))?.objectValue ?? [:]
        if !hadResponses { patch[Self.responsesKey] = .null }
        snapshot = patch.isEmpty ? nil : .object(patch)
        let answers = (original[Self.responsesKey]?.arrayValue ?? []).enumerated().map { index, answer in
            Response(question: questions[index], patch: JSONMergePatch.difference(from: written.response(for: questions[index]), to: answer))
        }
        let sameAsWritten = answers.allSatisfy { $0.patch == nil } && answers.map(\.question) == written.responses.map(\.question)
        responses = sameAsWritten ? nil : answers
    }

    /// The report as the file had it, from what Momentary writes now: answers Momentary holds that
    /// the file did not list (none, for an unchanged import) follow the file's, never dropped.
    func restore(_ written: ReporterWrittenSnapshot) -> JSONValue {
        var members = snapshot.map { JSONMergePatch.apply($0, to: .object(written.members)).objectValue ?? [:] } ?? written.members
        guard snapshot?.objectValue?[Self.responsesKey] != .null else { return .object(members) }
        guard let responses else {
            members[Self.responsesKey] = .array(written.responses.map(\.json))
            return .object(members)
        }
        let listed = Set(responses.map(\.question))
        var answers: [JSONValue] = responses.compactMap { kept in
            let base = written.response(for: kept.question)
            guard let patch = kept.patch else { return base }
            return JSONMergePatch.apply(patch, to: base)
        }
        answers += written.responses.filter { !listed.contains($0.question) }.map(\.json)
        members[Self.responsesKey] = .array(answers)
        return .object(members)
    }

    static let responsesKey = "responses"

    /// The kept JSON of a response, when it holds Reporter's.
    static func decode(_ text: String?) -> ReporterKept? {
        guard let text, let kept = try? JSONDecoder().decode(ReporterKept.self, from: Data(text.utf8)), kept.source == sourceName else { return nil }
        return kept
    }

    func encodedText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// A report as Momentary writes it from its columns: the snapshot's members (answers aside) and
/// each answer's JSON by the question it answers, in survey order.
struct ReporterWrittenSnapshot {
    var members: [String: JSONValue]
    var responses: [(question: String, json: JSONValue)]
    /// Photos copied beside the files for its `photoSet`.
    var copiedPhotos = 0

    func response(for question: String) -> JSONValue? {
        responses.first { $0.question == question }?.json
    }

    /// The whole snapshot as written, for a response with nothing kept.
    var json: JSONValue {
        var members = members
        members[ReporterKept.responsesKey] = .array(responses.map(\.json))
        return .object(members)
    }
}

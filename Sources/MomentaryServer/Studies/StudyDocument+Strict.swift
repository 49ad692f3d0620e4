import Foundation
import MomentaryCore

/// A study document is a contract: a field this server does not read is refused by name, never
/// dropped in silence (a misspelt `answer_window_minutes` would otherwise import a study without
/// the deadline its researchers wrote).
extension StudyDocument {
    struct UnknownFields: Error, CustomStringConvertible {
        let paths: [String]
        var description: String {
            (paths.count == 1 ? "unknown field " : "unknown fields ") + paths.map { "“\($0)”" }.joined(separator: ", ")
                + "; this server reads only the fields `studies export` writes"
        }
    }

    /// Decodes a document, after refusing any field it does not know.
    static func decode(_ data: Data) throws -> StudyDocument {
        let unknown = unknownFields(in: data)
        guard unknown.isEmpty else { throw UnknownFields(paths: unknown) }
        return try JSONDecoder().decode(StudyDocument.self, from: data)
    }

    /// The fields of the document and of its nested settings and survey entries that no property
    /// reads, as paths (`surveys[1].schedul`). Survey and schedule documents check their own keys.
    static func unknownFields(in data: Data) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        var unknown = extra(in: object, allowed: CodingKeys.allCases.map(\.rawValue), path: "")
        let nested: [(key: String, allowed: [String])] = [
            ("beeps_per_day", ["min", "max", "default"]), ("default_hours", ["start", "end"]),
        ]
        for (key, allowed) in nested {
            if let inner = object[key] as? [String: Any] { unknown += extra(in: inner, allowed: allowed, path: key + ".") }
        }
        if let allocation = object["allocation"] as? [String: Any] {
            unknown += extra(in: allocation, allowed: StudyArms.allocationKeys, path: "allocation.")
        }
        for (index, arm) in ((object["arms"] as? [Any]) ?? []).enumerated() {
            guard let arm = arm as? [String: Any] else { continue }
            unknown += extra(in: arm, allowed: StudyArms.armKeys, path: "arms[\(index)].")
        }
        for (index, entry) in ((object["surveys"] as? [Any]) ?? []).enumerated() {
            guard let entry = entry as? [String: Any] else { continue }
            unknown += extra(
                in: entry, allowed: ["name", "kind", "position", "active", "document", "schedule"], path: "surveys[\(index)].")
        }
        for (index, entry) in ((object["participant_variables"] as? [Any]) ?? []).enumerated() {
            guard let entry = entry as? [String: Any] else { continue }
            unknown += extra(
                in: entry, allowed: ParticipantVariableDefinition.CodingKeys.allCases.map(\.rawValue), path: "participant_variables[\(index)].")
        }
        return unknown
    }

    private static func extra(in object: [String: Any], allowed: [String], path: String) -> [String] {
        object.keys.filter { !allowed.contains($0) }.sorted().map { path + $0 }
    }
}

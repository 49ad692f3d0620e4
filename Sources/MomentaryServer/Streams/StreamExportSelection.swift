import Fluent
import Foundation
import MomentaryCore

/// What a stream export covers, named the same way by `momentary export streams` and the
/// website's Export page: participants by label or id, streams by name. One participant's stream
/// is one CSV; anything more is a ZIP of them (`StreamArchive`).
struct StreamExportSelection {
    /// Without repeats, in the order named.
    let participants: [Participant]
    let streams: [PassiveStream]

    var isArchive: Bool { participants.count * streams.count > 1 }

    /// A selection that cannot be made, in a sentence for the researcher.
    struct Problem: Error {
        let message: String
    }

    /// Throws `Problem` for a missing choice or an unknown stream, and `ParticipantLookup`'s
    /// `CommandFailure` for a participant not in the study.
    static func resolve(participants named: [String], streams names: [String], in study: Study, on db: any Database) async throws -> Self {
        let named = named.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !named.isEmpty else { throw Problem(message: "Choose at least one participant.") }
        guard !names.isEmpty else { throw Problem(message: "Choose at least one stream: \(streamNames).") }
        let streams = try names.map { name in
            guard let stream = PassiveStream(rawValue: name) else {
                throw Problem(message: "Unknown stream “\(name)”; choose one of \(streamNames).")
            }
            return stream
        }
        var participants: [Participant] = []
        for text in named {
            let participant = try await ParticipantLookup.find(text, inStudy: study, on: db)
            if !participants.contains(where: { $0.id == participant.id }) { participants.append(participant) }
        }
        var unique: [PassiveStream] = []
        for stream in streams where !unique.contains(stream) { unique.append(stream) }
        return Self(participants: participants, streams: unique)
    }

    private static var streamNames: String { PassiveStream.allCases.map(\.rawValue).joined(separator: ", ") }

    /// The name a participant's files go by: their label, or their id when they have none.
    static func name(of participant: Participant) throws -> String {
        try participant.label ?? participant.requireID().uuidString.lowercased()
    }
}

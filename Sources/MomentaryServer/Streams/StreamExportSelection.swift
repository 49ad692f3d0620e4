import Fluent
import Foundation
import MomentaryCore

/// What a stream export covers, named the same way by `momentary export streams` and the
/// website's Export page: participants by label or id (none named: everyone who uploaded any of
/// the streams), streams by name. One named participant's stream is one CSV; anything more is a
/// ZIP of them (`StreamArchive`).
struct StreamExportSelection {
    /// Without repeats, in the order named (everyone: in the order they registered).
    let participants: [Participant]
    let streams: [PassiveStream]
    /// No participant was named, so the export is of a group, however many it turned out to be.
    let everyone: Bool

    var isArchive: Bool { everyone || participants.count * streams.count > 1 }

    /// A selection that cannot be made, in a sentence for the researcher.
    struct Problem: Error {
        let message: String
    }

    /// Throws `Problem` for a missing choice or an unknown stream, and `ParticipantLookup`'s
    /// `CommandFailure` for a participant not in the study.
    static func resolve(participants named: [String], streams names: [String], in study: Study, on db: any Database) async throws -> Self {
        let named = named.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw Problem(message: "Choose at least one stream: \(streamNames).") }
        let streams = try names.map { name in
            guard let stream = PassiveStream(rawValue: name) else {
                throw Problem(message: "Unknown stream “\(name)”; choose one of \(streamNames).")
            }
            return stream
        }
        var unique: [PassiveStream] = []
        for stream in streams where !unique.contains(stream) { unique.append(stream) }
        guard !named.isEmpty else {
            let uploaders = try await everyone(uploading: unique, in: study, on: db)
            guard !uploaders.isEmpty else {
                throw Problem(message: "No participant of this study has uploaded \(unique.map(\.rawValue).joined(separator: " or ")).")
            }
            return Self(participants: uploaders, streams: unique, everyone: true)
        }
        var participants: [Participant] = []
        for text in named {
            let participant = try await ParticipantLookup.find(text, inStudy: study, on: db)
            if !participants.contains(where: { $0.id == participant.id }) { participants.append(participant) }
        }
        return Self(participants: participants, streams: unique, everyone: false)
    }

    /// The study's participants with an indexed hour of any of `streams`, in the order they
    /// registered: one look into the (participant, stream, hour) index per participant.
    private static func everyone(uploading streams: [PassiveStream], in study: Study, on db: any Database) async throws -> [Participant] {
        struct Row: Decodable { let id: UUID }
        let ids = try await db.sql.raw("""
            SELECT p.id FROM participants p WHERE p.study_id = \(bind: try study.requireID())
                AND EXISTS (SELECT 1 FROM stream_hours h WHERE h.participant_id = p.id AND h.stream IN (\(binds: streams.map(\.rawValue))))
            ORDER BY p.registered_at, p.id
            """).all(decoding: Row.self).map(\.id)
        // Loaded a thousand at a time, well under any database's limit of bound values.
        var byID: [UUID: Participant] = [:]
        for chunk in ids.chunked(1_000) {
            for participant in try await Participant.query(on: db).filter(\.$id ~~ chunk).all() {
                byID[try participant.requireID()] = participant
            }
        }
        return ids.compactMap { byID[$0] }
    }

    private static var streamNames: String { PassiveStream.allCases.map(\.rawValue).joined(separator: ", ") }

    /// The name a participant's files go by: their label, or their id when they have none.
    static func name(of participant: Participant) throws -> String {
        try participant.label ?? participant.requireID().uuidString.lowercased()
    }
}

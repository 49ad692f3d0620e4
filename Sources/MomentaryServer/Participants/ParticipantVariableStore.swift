import Fluent
import Foundation
import MomentaryCore

/// Reading and setting participants' variables (`participants.variables`).
enum ParticipantVariableStore {
    /// The participant's variables by name; empty when none are set.
    static func values(of participantID: UUID, on db: any Database) async throws -> [String: JSONValue] {
        try await Participant.find(participantID, on: db)?.variables ?? [:]
    }

    /// Applies `changes` (name → value, null to clear) under the study's definitions and stores
    /// the result; a refusal stores nothing. Returns the participant's variables after the change.
    @discardableResult
    static func set(
        _ changes: [String: JSONValue], of participant: Participant, in study: Study, on db: any Database
    ) async throws -> [String: JSONValue] {
        let values = try ParticipantVariables.applying(changes, to: participant.variables, definitions: study.participantVariables)
        participant.variables = values
        try await participant.save(on: db)
        return values
    }

    /// What an app is sent with a survey: the values of the variables the survey names.
    static func delivered(for document: SurveyDocument, participant: Participant) -> [String: JSONValue] {
        let names = document.variableNames
        guard !names.isEmpty else { return [:] }
        return participant.variables.filter { names.contains($0.key) }
    }
}

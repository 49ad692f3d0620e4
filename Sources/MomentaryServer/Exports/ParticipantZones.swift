import Foundation
import MomentaryCore
import SQLKit

/// The zones exports write local times in: each participant's own, else the study's default, else
/// `ParticipantTimeZone`'s fallback. Resolved once per name: a study has a few zones and many rows.
struct ParticipantZones {
    private let studyDefault: String
    private var resolved: [String: TimeZone] = [:]

    init(studyID: UUID, sql: any SQLDatabase) async throws {
        studyDefault = try await sql.raw("SELECT default_timezone FROM studies WHERE id = \(bind: studyID)")
            .all(decodingColumn: "default_timezone", as: String.self).first ?? ParticipantTimeZone.fallbackIdentifier
    }

    mutating func zone(named name: String) -> TimeZone {
        if let zone = resolved[name] { return zone }
        let zone = ParticipantTimeZone.resolve(name, studyDefault: studyDefault)
        resolved[name] = zone
        return zone
    }
}

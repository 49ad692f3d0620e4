import Fluent
import Foundation
import MomentaryCore
import Vapor

/// The personal data-download link: off until the participant turns it on; each time it
/// is turned on a new secret replaces the old one, which stops working at once. Only the secret's
/// hash is stored, so the link can be shown once, when it is made.
enum DataDownloadService {
    static func enable(for participant: Participant, on db: any Database, now: Date) async throws -> String {
        guard let study = try await Study.find(participant.$study.id, on: db), study.dataDownloadEnabled else {
            throw APIError.notFound("Your study does not offer a download of your data.")
        }
        let code = DownloadCode.generate()
        participant.downloadTokenHash = hash(DownloadCode.canonical(code)!)
        participant.updatedAt = now
        try await participant.save(on: db)
        return code
    }

    static func disable(for participant: Participant, on db: any Database, now: Date) async throws {
        guard participant.downloadTokenHash != nil else { return }
        participant.downloadTokenHash = nil
        participant.updatedAt = now
        try await participant.save(on: db)
    }

    /// The participant and study a link's code opens, or nil. Unknown, disabled and malformed
    /// codes, and links of a study that no longer offers downloads, take the same path: one hash
    /// and one indexed query, so neither the answer nor its timing tells them apart.
    static func owner(ofCode text: String, on db: any Database) async throws -> (participant: Participant, study: Study)? {
        let canonical = DownloadCode.canonical(text)
        let key = hash(canonical ?? "malformed:" + text.prefix(64))
        let found = try await Participant.query(on: db)
            .join(Study.self, on: \Participant.$study.$id == \Study.$id)
            .filter(\.$downloadTokenHash == key).filter(Study.self, \.$dataDownloadEnabled == true)
            .first()
        guard canonical != nil, let participant = found else { return nil }
        return (participant, try participant.joined(Study.self))
    }

    private static func hash(_ canonical: String) -> String {
        SecretHash.of("download:" + canonical)
    }

    /// The link's absolute address, from the host the participant's request reached.
    static func url(code: String, on request: Request) -> String {
        ClientAddress.origin(of: request) + "/my/\(code)"
    }
}

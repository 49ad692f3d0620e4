import Fluent
import Foundation
import MomentaryCore

/// Five-character public codes — invitation codes and participant labels — share one namespace
/// across the server, so a code names one person wherever it is typed (`beep now --participant`,
/// exports, the website). No vowels and no look-alikes, so they are read out without mistakes.
enum PublicCodes {
    static let length = 5

    /// Every code in use: invitation codes and participant labels.
    static func taken(on db: any Database) async throws -> Set<String> {
        var codes = Set(try await Invitee.query(on: db).all(\.$code))
        for label in try await Participant.query(on: db).filter(\.$label != nil).all(\.$label) {
            if let label { codes.insert(label) }
        }
        return codes
    }

    /// A code not in `taken` (which gains it), retrying the rare collision.
    static func fresh(avoiding taken: inout Set<String>) -> String {
        while true {
            let code = SecretCode.generate(length: length, from: .unambiguous)
            if taken.insert(code).inserted { return code }
        }
    }

    /// The label a new participant gets: the invitation code they joined with, or a fresh code
    /// (two indexed look-ups per try, so registering stays cheap in a large study). A code that
    /// already labels someone (an invitation a researcher set back to "invited") gets a fresh one.
    static func label(forInvitationCode code: String?, on db: any Database) async throws -> String {
        if let code, try await Participant.query(on: db).filter(\.$label == code).count() == 0 { return code }
        while true {
            let candidate = SecretCode.generate(length: length, from: .unambiguous)
            let usedAsInvitation = try await Invitee.query(on: db).filter(\.$code == candidate).count() > 0
            let usedAsLabel = try await Participant.query(on: db).filter(\.$label == candidate).count() > 0
            if !usedAsInvitation && !usedAsLabel { return candidate }
        }
    }
}

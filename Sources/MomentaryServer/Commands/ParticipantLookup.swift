import ArgumentParser
import Fluent
import Foundation

/// Finds the participant a command names, by id or by public label, as the website shows both.
enum ParticipantLookup {
    /// What `--participant` accepts, for help texts.
    static let help = "The participant: their label (the 5-character code on the website, or the Beiwe patient id of an imported one) or id (a UUID)."

    /// Refuses, before anything is opened, a `--participant` that can be neither a label nor an id.
    static func validate(_ text: String) throws {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard UUID(uuidString: text) != nil || text.count == PublicCodes.length || BeiweDownloadFolder.isPatientID(text) else {
            throw ValidationError("--participant must be a participant's label (5 characters, such as BCD23, or an imported Beiwe patient id of 8) or id (a UUID), not “\(text)”.")
        }
    }

    /// The participant with this id, or with this label (labels are unique server-wide); when a
    /// study is given, the participant must belong to it.
    static func find(_ text: String, inStudy study: Study? = nil, on db: any Database) async throws -> Participant {
        let text = text.trimmingCharacters(in: .whitespaces)
        let found: Participant?
        let what: String
        if let id = UUID(uuidString: text) {
            found = try await Participant.find(id, on: db)
            what = "id \(id)"
        } else {
            // Codes are upper case, however typed; Beiwe patient ids (imported participants) lower case.
            let label = BeiweDownloadFolder.isPatientID(text) ? text : text.uppercased()
            found = try await Participant.query(on: db).filter(\.$label == label).first()
            what = "label \(label)"
        }
        guard let found else { throw CommandFailure("No participant has the \(what).") }
        if let study, try found.$study.id != study.requireID() {
            throw CommandFailure("The participant with the \(what) is not in the study “\(study.slug)”.")
        }
        return found
    }
}

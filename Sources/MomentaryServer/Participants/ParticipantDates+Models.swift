import Fluent
import Foundation
import MomentaryCore

extension Study {
    /// The names of the dates the study keeps per participant, in the order the researchers gave.
    var participantDateNames: [String] {
        get {
            guard let text = participantDateNamesJSON else { return [] }
            return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
        }
        set {
            participantDateNamesJSON = newValue.isEmpty
                ? nil : String(decoding: (try? JSONEncoder().encode(newValue)) ?? Data("[]".utf8), as: UTF8.self)
        }
    }
}

extension Participant {
    /// The participant's named dates, by name.
    var namedDates: [String: LocalDate] {
        get { ParticipantDates.decode(dates) }
        set { dates = ParticipantDates.encode(newValue) }
    }
}

/// Setting a participant's dates, for the website and the command line: checked against the
/// study's names, stored, and the participant replanned so rules counting from a date follow it.
enum ParticipantDateService {
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// The dates after applying `changes` (a name to a date, or to nil to clear it), or a refusal
    /// naming what is wrong. Dates are `YYYY-MM-DD`; an empty text clears.
    static func applying(_ changes: [String: String], to participant: Participant, study: Study) throws -> [String: LocalDate] {
        var dates = participant.namedDates
        let names = study.participantDateNames
        for (name, text) in changes.sorted(by: { $0.key < $1.key }) {
            guard names.contains(name) else {
                let known = names.isEmpty ? "the study names no dates" : "the study's dates are " + names.map { "“\($0)”" }.joined(separator: ", ")
                throw Refusal(description: "“\(name)” is not one of the study's participant dates; \(known).")
            }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                dates[name] = nil
            } else if let date = LocalDate(trimmed) {
                dates[name] = date
            } else {
                throw Refusal(description: "The date for “\(name)”, “\(text)”, is not a date in YYYY-MM-DD form.")
            }
        }
        return dates
    }

    /// Stores the dates and replans the participant's beeps from now, in one transaction.
    static func set(_ dates: [String: LocalDate], of participant: Participant, on db: any Database, now: Date) async throws {
        participant.namedDates = dates
        try await db.transaction { tx in
            try await participant.save(on: tx)
            if participant.status == .participating && participant.active {
                try await BeepPlanner.settingsChanged(try participant.requireID(), on: tx, now: now)
            }
        }
    }
}

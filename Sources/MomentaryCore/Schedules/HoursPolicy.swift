import Foundation

/// Who chooses a participant's signalling hours (study document field `hours_policy`).
public enum HoursPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    /// Each participant chooses any hours (the default, and every study before the policy existed).
    case participant
    /// Each participant chooses hours within the study's earliest start and latest end, at least
    /// the study's minimum window long.
    case bounded
    /// Everyone has the study's preset hours and cannot change them.
    case fixed

    /// Names the three values, so that a misspelt policy is refused with what would be accepted.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let policy = HoursPolicy(rawValue: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: Self.unknownMessage(text))
        }
        self = policy
    }

    /// One sentence for a value that is not a policy, shared by the decoder and the website's form.
    public static func unknownMessage(_ text: String) -> String {
        let names = allCases.map(\.rawValue).joined(separator: ", ")
        return "The hours policy must be one of \(names), not “\(text)”."
    }
}

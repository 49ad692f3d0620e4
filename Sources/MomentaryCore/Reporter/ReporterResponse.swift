import Foundation

/// One answered question of a report: its prompt and the answer in one of Reporter's shapes.
/// Reporter writes nothing for a question that was not answered.
public struct ReporterResponse: Codable, Sendable, Hashable {
    public var questionPrompt: String
    public var answer: ReporterAnswer
    public var uniqueIdentifier: String?

    public init(questionPrompt: String, answer: ReporterAnswer, uniqueIdentifier: String? = nil) {
        self.questionPrompt = questionPrompt
        self.answer = answer
        self.uniqueIdentifier = uniqueIdentifier
    }

    enum CodingKeys: String, CodingKey {
        case questionPrompt, uniqueIdentifier, tokens, answeredOptions, numericResponse, textResponse, locationResponse
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        questionPrompt = try container.decode(String.self, forKey: .questionPrompt)
        uniqueIdentifier = try container.decodeIfPresent(String.self, forKey: .uniqueIdentifier)
        let shapes: [CodingKeys] = [.tokens, .answeredOptions, .numericResponse, .textResponse, .locationResponse]
        let present = shapes.filter(container.contains)
        guard present.count == 1, let shape = present.first else {
            throw DecodingError.dataCorruptedError(
                forKey: .questionPrompt, in: container,
                debugDescription: present.isEmpty
                    ? "has no answer: one of tokens, answeredOptions, numericResponse, textResponse or locationResponse is needed."
                    : "has more than one answer (\(present.map(\.stringValue).joined(separator: ", "))).")
        }
        switch shape {
        case .tokens: answer = .tokens(try container.decode([String].self, forKey: .tokens))
        case .answeredOptions: answer = .options(try container.decode([String].self, forKey: .answeredOptions))
        case .numericResponse:
            // Reporter writes the number as text ("0"); a bare number is taken too.
            let text = try (try? container.decode(String.self, forKey: .numericResponse))
                ?? String(container.decode(Double.self, forKey: .numericResponse))
            guard let number = Double(text), number.isFinite else {
                throw DecodingError.dataCorruptedError(forKey: .numericResponse, in: container, debugDescription: "must be a number, not “\(text)”.")
            }
            answer = .number(text)
        case .textResponse: answer = .text(try container.decode(String.self, forKey: .textResponse))
        default: answer = .location(try container.decode(ReporterLocationResponse.self, forKey: .locationResponse))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(questionPrompt, forKey: .questionPrompt)
        try container.encodeIfPresent(uniqueIdentifier, forKey: .uniqueIdentifier)
        switch answer {
        case .tokens(let tokens): try container.encode(tokens, forKey: .tokens)
        case .options(let options): try container.encode(options, forKey: .answeredOptions)
        case .number(let text): try container.encode(text, forKey: .numericResponse)
        case .text(let text): try container.encode(text, forKey: .textResponse)
        case .location(let location): try container.encode(location, forKey: .locationResponse)
        }
    }
}

/// Reporter's answer shapes (seed 002). Tokens serve "what are you doing?" and people questions;
/// answered options serve multiple choice and yes/no; a number is kept as the text Reporter wrote.
public enum ReporterAnswer: Sendable, Hashable {
    case tokens([String])
    case options([String])
    case number(String)
    case text(String)
    case location(ReporterLocationResponse)
}

/// A "where are you?" answer: the place as typed or chosen, the fix, and a Foursquare venue.
public struct ReporterLocationResponse: Codable, Sendable, Hashable {
    public var text: String?
    public var location: ReporterLocation?
    public var foursquareVenueId: String?

    public init(text: String? = nil, location: ReporterLocation? = nil, foursquareVenueId: String? = nil) {
        self.text = text
        self.location = location
        self.foursquareVenueId = foursquareVenueId
    }
}

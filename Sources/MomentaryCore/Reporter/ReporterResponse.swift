import Foundation

/// One question of a report: its prompt and the answer in one of Reporter's shapes, or no answer
/// at all (`{"questionPrompt": "Who are you with?"}`: the question was shown and skipped).
public struct ReporterResponse: Codable, Sendable, Hashable {
    public var questionPrompt: String
    /// Nil for a skipped question.
    public var answer: ReporterAnswer?
    public var uniqueIdentifier: String?

    public init(questionPrompt: String, answer: ReporterAnswer?, uniqueIdentifier: String? = nil) {
        self.questionPrompt = questionPrompt
        self.answer = answer
        self.uniqueIdentifier = uniqueIdentifier
    }

    enum CodingKeys: String, CodingKey {
        case questionPrompt, uniqueIdentifier, tokens, answeredOptions, numericResponse, textResponse, textResponses, locationResponse
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        questionPrompt = try container.decode(String.self, forKey: .questionPrompt)
        uniqueIdentifier = try container.decodeIfPresent(String.self, forKey: .uniqueIdentifier)
        let shapes: [CodingKeys] = [.tokens, .answeredOptions, .numericResponse, .textResponse, .textResponses, .locationResponse]
        let present = shapes.filter(container.contains)
        guard present.count <= 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .questionPrompt, in: container,
                debugDescription: "has more than one answer (\(present.map(\.stringValue).joined(separator: ", "))).")
        }
        switch present.first {
        case nil: answer = nil
        case .tokens?: answer = .tokens(try container.decode([ReporterText].self, forKey: .tokens).map(\.text))
        case .answeredOptions?: answer = .options(try container.decode([String].self, forKey: .answeredOptions))
        case .numericResponse?:
            // Reporter writes the number as text ("0"); a bare number is taken too.
            let text = try (try? container.decode(String.self, forKey: .numericResponse))
                ?? SurveyMessages.number(container.decode(Double.self, forKey: .numericResponse))
            guard let number = Double(text), number.isFinite else {
                throw DecodingError.dataCorruptedError(forKey: .numericResponse, in: container, debugDescription: "must be a number, not “\(text)”.")
            }
            answer = .number(text)
        case .textResponse?: answer = .text(try container.decode(String.self, forKey: .textResponse))
        case .textResponses?:
            // Later versions write a note as a list of texts; Momentary keeps them as one text, a line each.
            answer = .text(try container.decode([ReporterText].self, forKey: .textResponses).map(\.text).joined(separator: "\n"))
        default: answer = .location(try container.decode(ReporterLocationResponse.self, forKey: .locationResponse))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(questionPrompt, forKey: .questionPrompt)
        try container.encodeIfPresent(uniqueIdentifier, forKey: .uniqueIdentifier)
        switch answer {
        case nil: break
        case .tokens(let tokens)?: try container.encode(tokens, forKey: .tokens)
        case .options(let options)?: try container.encode(options, forKey: .answeredOptions)
        case .number(let text)?: try container.encode(text, forKey: .numericResponse)
        case .text(let text)?: try container.encode(text, forKey: .textResponse)
        case .location(let location)?: try container.encode(location, forKey: .locationResponse)
        }
    }
}

/// A token or a note as later versions write it, `{"text": "Working", "uniqueIdentifier": "…"}`,
/// or as a plain string, as 2014 versions wrote tokens. Only the text is read here; the
/// identifiers are kept with the rest of the file by whoever keeps the file as it is.
struct ReporterText: Decodable {
    let text: String

    enum CodingKeys: String, CodingKey { case text }

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self.text = text
            return
        }
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "must be a text or an object with a “text”."))
        }
        text = try container.decode(String.self, forKey: .text)
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

    /// The shape's name in Reporter's files (`textResponse` for both the single text and the list).
    public var shapeName: String {
        switch self {
        case .tokens: "tokens"
        case .options: "answeredOptions"
        case .number: "numericResponse"
        case .text: "textResponse"
        case .location: "locationResponse"
        }
    }
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

import Foundation

/// A URL path with named parameters (`/studies/{slug}/surveys/{surveyID}`): what the participant
/// API's and the researcher website's typed routes are made of. The server registers its handlers
/// from the segments; links and redirects fill the parameters with `path(_:)`.
public struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
    public enum Segment: Sendable, Hashable {
        case constant(String)
        /// A path parameter, named as in the template (`{id}`).
        case parameter(String)
    }

    public let segments: [Segment]

    /// Parses a template written as `studies/{slug}/settings` (leading slash optional).
    public init(_ template: String) {
        segments = template.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .constant(String(part))
        }
    }

    /// The template itself, e.g. `/api/v1/beeps/{id}/survey`.
    public var description: String {
        "/" + segments.map { segment in
            switch segment {
            case .constant(let text): text
            case .parameter(let name): "{\(name)}"
            }
        }.joined(separator: "/")
    }

    public var parameterNames: [String] {
        segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// A concrete path with the parameters filled in order, each percent-encoded.
    /// Passing the wrong number of values is a programming error.
    public func path(_ values: [String]) -> String {
        precondition(values.count == parameterNames.count,
                     "\(self) takes \(parameterNames.count) parameter(s), got \(values.count)")
        var remaining = values[...]
        return "/" + segments.map { segment in
            switch segment {
            case .constant(let text):
                return text
            case .parameter:
                let value = remaining.removeFirst()
                return value.addingPercentEncoding(withAllowedCharacters: Self.segmentAllowed) ?? value
            }
        }.joined(separator: "/")
    }

    private static let segmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
}

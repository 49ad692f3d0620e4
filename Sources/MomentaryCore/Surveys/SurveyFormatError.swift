import Foundation

/// A survey document that cannot be read at all: wrong JSON types, an unknown `question_type`,
/// options that are not objects. The message names the question (position and id) and the field.
///
/// Problems that leave the document readable (duplicate ids, bad ranges, skip logic pointing at
/// later questions, …) are not thrown; `SurveyDocument.problems()` lists them all at once.
public struct SurveyFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

import Foundation

/// A schedule document that cannot be used, with a message naming the rule (1-based) at fault.
public struct FixedScheduleError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// Position of the offending rule in `rules`, counting from 1; `nil` for the document itself.
    public var rule: Int?
    public var message: String

    public init(rule: Int? = nil, _ message: String) {
        self.rule = rule
        self.message = message
    }

    public var description: String {
        rule.map { "rule \($0): \(message)" } ?? message
    }

    public var errorDescription: String? { description }
}

import Foundation

/// A problem with the options of `momentary schedule preview`, described in one line.
public struct SchedulePreviewError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
    public var errorDescription: String? { message }
}

import Foundation

/// How long a beep may be answered and how participants are reminded of it: the one rule the
/// website, study documents, delivery and ingest read.
///
/// - `answerWindowMinutes`: how long after it reaches the participant a beep may be started; nil
///   keeps the Mappiness rule (until the next beep is sent or the participant's hours end).
/// - `completionMinutes`: once started in time, how long the survey may take to finish.
/// - `remindersAfterMinutes`: up to five offsets after the beep, each strictly inside the window,
///   at which the same notification is sent again while nobody has opened, answered or ignored it.
public struct AnswerWindow: Sendable, Hashable {
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case answerWindow = "answer_window_minutes"
        case completion = "completion_minutes"
        case reminders = "reminders_after_minutes"
    }

    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public let field: Field
        /// One sentence naming what to change.
        public let message: String
        public var description: String { message }
    }

    public static let minutesRange = 1...1440
    public static let maximumReminders = 5
    public static let defaultCompletionMinutes = 30

    public var answerWindowMinutes: Int?
    public var completionMinutes: Int
    public var remindersAfterMinutes: [Int]

    public init(answerWindowMinutes: Int? = nil, completionMinutes: Int = defaultCompletionMinutes, remindersAfterMinutes: [Int] = []) {
        self.answerWindowMinutes = answerWindowMinutes
        self.completionMinutes = completionMinutes
        self.remindersAfterMinutes = remindersAfterMinutes
    }

    /// Everything that makes the settings unusable, in field order; empty when usable.
    public func problems() -> [Problem] {
        var problems: [Problem] = []
        let range = Self.minutesRange
        if let window = answerWindowMinutes, !range.contains(window) {
            problems.append(Problem(field: .answerWindow, message:
                "The answer window must be \(range.lowerBound) to \(range.upperBound) minutes, not \(window); leave it empty to keep each beep answerable until the next one."))
        }
        if !range.contains(completionMinutes) {
            problems.append(Problem(field: .completion, message:
                "The time to finish a started survey must be \(range.lowerBound) to \(range.upperBound) minutes, not \(completionMinutes)."))
        }
        let reminders = remindersAfterMinutes
        if reminders.count > Self.maximumReminders {
            problems.append(Problem(field: .reminders, message:
                "At most \(Self.maximumReminders) reminders a beep, not \(reminders.count)."))
        } else if let bad = reminders.first(where: { !range.contains($0) }) {
            problems.append(Problem(field: .reminders, message:
                "Each reminder must come \(range.lowerBound) to \(range.upperBound) minutes after the beep, not \(bad)."))
        } else if zip(reminders, reminders.dropFirst()).contains(where: { $0 >= $1 }) {
            problems.append(Problem(field: .reminders, message:
                "List the reminders in increasing order, each once (such as 5, 10), not \(Self.text(reminders))."))
        } else if let window = answerWindowMinutes, range.contains(window), let late = reminders.first(where: { $0 >= window }) {
            problems.append(Problem(field: .reminders, message:
                "A reminder \(late) minutes after the beep falls outside the \(window)-minute answer window; each must come before the window closes."))
        }
        return problems
    }

    /// When a beep delivered at `deliveredAt` stops being answerable, given the Mappiness
    /// deadline `fallback` (the end of the participant's hours): the window's end when set.
    public func deadline(deliveredAt: Date, fallback: Date) -> Date {
        answerWindowMinutes.map { deliveredAt.addingTimeInterval(Double($0) * 60) } ?? fallback
    }

    /// The reminders as a form shows them: "5, 10".
    public static func text(_ minutes: [Int]) -> String {
        minutes.map(String.init).joined(separator: ", ")
    }

    /// Reads reminders typed as "5, 10" (empty for none); nil with a sentence when unreadable.
    public static func parseReminders(_ text: String) -> (minutes: [Int]?, problem: String?) {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        var minutes: [Int] = []
        for part in parts {
            guard let number = Int(part) else {
                return (nil, "Reminders: “\(part.prefix(20))” is not a whole number of minutes; write them like 5, 10.")
            }
            minutes.append(number)
        }
        return (minutes, nil)
    }
}

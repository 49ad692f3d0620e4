import Foundation
import MomentaryCore

/// One participant filling in one survey: keeps the answers and Beiwe's timing events, and
/// produces the response to upload and the `survey_timings` rows.
///
/// The app calls `present` when a question comes on screen, `change` for every edit, `unpresent`
/// when it leaves, then `submit` (or `expire`). Slider edits are debounced: consecutive changes of
/// the same slider less than 0.25 s apart make one `changed` event, with the last value and time.
public struct SurveySession: Sendable {
    public static let sliderDebounce: TimeInterval = 0.25

    public enum State: Sendable, Hashable {
        case open, submitted, expired
    }

    public let surveyID: UUID?
    public let surveyVersion: Int
    public let beepID: UUID?
    public let questions: [SurveySessionQuestion]
    public private(set) var state: State = .open
    /// When the first question was shown.
    public private(set) var startedAt: Date?

    private let clock: @Sendable () -> Date
    private var recorded: [SurveyTimingEvent] = []
    /// A slider change not yet recorded, because another may follow within the debounce time.
    private var pendingSliderChange: SurveyTimingEvent?
    private var answers: [String: JSONValue] = [:]
    private var onScreen: [String] = []
    private var presentedInOrder: [String] = []

    public init(surveyID: UUID?, surveyVersion: Int, beepID: UUID?, questions: [SurveySessionQuestion],
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.surveyID = surveyID
        self.surveyVersion = surveyVersion
        self.beepID = beepID
        self.questions = questions
        self.clock = clock
    }

    /// The timing events so far, including a slider change still inside its debounce time.
    public var events: [SurveyTimingEvent] {
        recorded + (pendingSliderChange.map { [$0] } ?? [])
    }

    /// The current answer to a question (nil when blank).
    public func answer(to questionID: String) -> JSONValue? {
        answers[questionID]
    }

    /// The survey became available: `at` is when the beep's notification arrived, if known.
    public mutating func notified(at date: Date? = nil) throws(SurveySessionError) {
        try requireOpen()
        recorded.append(SurveyTimingEvent(timestamp: date ?? clock(), kind: .notified))
    }

    public mutating func present(_ questionID: String) throws(SurveySessionError) {
        try requireOpen()
        let question = try lookUp(questionID)
        flushSliderChange()
        let now = clock()
        if startedAt == nil { startedAt = now }
        if !onScreen.contains(questionID) { onScreen.append(questionID) }
        if !presentedInOrder.contains(questionID) { presentedInOrder.append(questionID) }
        recorded.append(SurveyTimingEvent(timestamp: now, kind: .present, question: question, answer: answers[questionID]))
    }

    /// A new answer for an on-screen question; nil or JSON null clears it.
    public mutating func change(_ questionID: String, to answer: JSONValue?) throws(SurveySessionError) {
        try requireOpen()
        let question = try lookUp(questionID)
        guard onScreen.contains(questionID) else { throw .notOnScreen(questionID) }
        let value = answer == .null ? nil : answer
        answers[questionID] = value
        let event = SurveyTimingEvent(timestamp: clock(), kind: .changed, question: question, answer: value)
        guard question.isSlider else {
            flushSliderChange()
            recorded.append(event)
            return
        }
        if let pending = pendingSliderChange, pending.question?.id == questionID,
           event.timestamp.timeIntervalSince(pending.timestamp) < Self.sliderDebounce {
            pendingSliderChange = event
        } else {
            flushSliderChange()
            pendingSliderChange = event
        }
    }

    public mutating func unpresent(_ questionID: String) throws(SurveySessionError) {
        try requireOpen()
        let question = try lookUp(questionID)
        guard onScreen.contains(questionID) else { throw .notOnScreen(questionID) }
        flushSliderChange()
        onScreen.removeAll { $0 == questionID }
        recorded.append(SurveyTimingEvent(timestamp: clock(), kind: .unpresent, question: question, answer: answers[questionID]))
    }

    /// Closes the session and returns the response to queue. Questions still on screen are
    /// unpresented first. The answers list every question shown, in the order first shown, with
    /// `null` for those left blank; questions never shown are left out.
    public mutating func submit(idempotencyKey: String = UUID().uuidString.lowercased(),
                                context: ResponseContext = ResponseContext()) throws(SurveySessionError) -> ResponseSubmission {
        try requireOpen()
        try closeScreen()
        let now = clock()
        recorded.append(SurveyTimingEvent(timestamp: now, kind: .submitted))
        state = .submitted
        let submitted = presentedInOrder.compactMap { id -> SubmittedAnswer? in
            guard questions.first(where: { $0.id == id })?.takesAnswer == true else { return nil }
            return SubmittedAnswer(questionID: id, answer: answers[id])
        }
        // The session's timing events travel with the answers, as the web app sends them.
        let timings = events.compactMap(\.wireTiming).prefix(SurveyTiming.maximumCount)
        return ResponseSubmission(idempotencyKey: idempotencyKey, beepID: beepID, surveyID: surveyID,
                                  surveyVersion: surveyVersion, startedAt: startedAt ?? now, submittedAt: now,
                                  answers: submitted, context: context, timings: Array(timings))
    }

    /// Closes the session without a response (the survey's time ran out).
    public mutating func expire() throws(SurveySessionError) {
        try requireOpen()
        try closeScreen()
        recorded.append(SurveyTimingEvent(timestamp: clock(), kind: .expired))
        state = .expired
    }

    /// Beiwe's `survey_timings` CSV for this session, header included.
    public func timingsCSV() -> String {
        SurveyTimingEvent.csv(events)
    }

    private mutating func closeScreen() throws(SurveySessionError) {
        for questionID in onScreen {
            try unpresent(questionID)
        }
    }

    private mutating func flushSliderChange() {
        if let pending = pendingSliderChange {
            recorded.append(pending)
            pendingSliderChange = nil
        }
    }

    private func lookUp(_ questionID: String) throws(SurveySessionError) -> SurveySessionQuestion {
        guard let question = questions.first(where: { $0.id == questionID }) else {
            throw .unknownQuestion(questionID)
        }
        return question
    }

    private func requireOpen() throws(SurveySessionError) {
        guard state == .open else { throw .closed(state) }
    }
}

public enum SurveySessionError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownQuestion(String)
    case notOnScreen(String)
    case closed(SurveySession.State)

    public var description: String {
        switch self {
        case .unknownQuestion(let id): "The survey has no question “\(id)”."
        case .notOnScreen(let id): "Question “\(id)” is not on screen."
        case .closed(let state): "The survey session is already \(state == .submitted ? "submitted" : "expired")."
        }
    }
}

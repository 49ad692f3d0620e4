import Foundation
import MomentaryClient
import MomentaryCore
import Testing

@Suite("Survey session")
struct SurveySessionTests {
    static let happy = SurveySessionQuestion(id: "happy", type: "slider", text: "How happy are you?")
    static let doing = SurveySessionQuestion(id: "doing", type: "free_response", text: "What are you doing, and with whom?")
    static let alone = SurveySessionQuestion(id: "alone", type: "radio_button", text: "Are you alone?", answerOptions: "[Yes; No]")
    static let intro = SurveySessionQuestion(id: "intro", type: "info_text_box", text: "Thanks for answering!")

    @available(macOS 15.0, iOS 18.0, *)
    func makeSession(_ clock: TestClock, beep: UUID? = UUID()) -> SurveySession {
        SurveySession(surveyID: UUID(), surveyVersion: 2, beepID: beep,
                      questions: [Self.intro, Self.happy, Self.doing, Self.alone], clock: { clock.now })
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("a slider dragged quickly records one change with the value it rests on")
    func sliderDebounce() throws {
        let clock = TestClock()
        var session = makeSession(clock)
        try session.present("happy")
        for value in [10.0, 20, 35, 50] {
            clock.advance(by: 0.1)
            try session.change("happy", to: .number(value))
        }
        let restAt = clock.now
        clock.advance(by: 0.4)
        try session.change("happy", to: .number(55))
        clock.advance(by: 1)
        try session.unpresent("happy")

        let changes = session.events.filter { $0.kind == .changed }
        #expect(changes.map(\.answer) == [.number(50), .number(55)])
        #expect(changes.first?.timestamp == restAt)
        #expect(session.events.map(\.kind) == [.present, .changed, .changed, .unpresent])
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("changes exactly 0.25 s apart, or to another slider, are separate events")
    func debounceBoundaries() throws {
        let clock = TestClock()
        let other = SurveySessionQuestion(id: "energy", type: "slider", text: "Energy?")
        var session = SurveySession(surveyID: nil, surveyVersion: 1, beepID: nil,
                                    questions: [Self.happy, other], clock: { clock.now })
        try session.present("happy")
        try session.present("energy")
        try session.change("happy", to: .number(1))
        clock.advance(by: 0.25)
        try session.change("happy", to: .number(2))
        clock.advance(by: 0.1)
        try session.change("energy", to: .number(3))
        clock.advance(by: 0.1)
        try session.change("happy", to: .number(4))
        let changes = session.events.filter { $0.kind == .changed }.map(\.answer)
        #expect(changes == [.number(1), .number(2), .number(3), .number(4)])
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("text edits are all recorded, and present shows the earlier answer when going back")
    func textChangesAndGoingBack() throws {
        let clock = TestClock()
        var session = makeSession(clock)
        try session.present("doing")
        for text in ["D", "Do", "Dog"] {
            clock.advance(by: 0.05)
            try session.change("doing", to: .string(text))
        }
        try session.unpresent("doing")
        try session.present("alone")
        try session.unpresent("alone")
        try session.present("doing")
        let events = session.events
        #expect(events.filter { $0.kind == .changed }.map(\.answer) == [.string("D"), .string("Do"), .string("Dog")])
        #expect(events.last?.kind == .present)
        #expect(events.last?.answer == .string("Dog"))
        #expect(events[0].answer == nil)
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("submitting closes the screen and builds the response from what was shown")
    func submitBuildsResponse() throws {
        let clock = TestClock()
        let beep = UUID()
        var session = makeSession(clock, beep: beep)
        try session.notified(at: clock.now.addingTimeInterval(-120))
        clock.advance(by: 1)
        let started = clock.now
        try session.present("intro")
        try session.unpresent("intro")
        try session.present("happy")
        try session.change("happy", to: .number(72))
        clock.advance(by: 2)
        try session.unpresent("happy")
        try session.present("alone")   // shown, left blank, still on screen at submit
        clock.advance(by: 3)
        let context = ResponseContext(battery: 0.5, connection: .wifi, impetus: .notification)
        let response = try session.submit(idempotencyKey: "key-1", context: context)

        #expect(response.idempotencyKey == "key-1")
        #expect(response.beepID == beep)
        #expect(response.surveyVersion == 2)
        #expect(response.startedAt == started)
        #expect(response.submittedAt == clock.now)
        #expect(response.answers == [SubmittedAnswer(questionID: "happy", answer: .number(72)),
                                     SubmittedAnswer(questionID: "alone", answer: nil)])
        #expect(response.context == context)
        try response.validate()
        #expect(session.events.suffix(2).map(\.kind) == [.unpresent, .submitted])
        // The timing events go with the answers (all but `notified`, which came before the survey).
        #expect(response.timings.map(\.event) == [.present, .unpresent, .present, .changed, .unpresent, .present, .unpresent, .submitted])
        #expect(response.timings.first?.questionID == "intro" && response.timings.last?.questionID == nil)
        #expect(response.timings.first { $0.event == .changed }?.answer == .number(72))
        #expect(session.state == .submitted)
        #expect(throws: SurveySessionError.closed(.submitted)) { try session.present("happy") }
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("expiry closes the session with an expired event and no response")
    func expiry() throws {
        let clock = TestClock()
        var session = makeSession(clock)
        try session.notified()
        try session.present("happy")
        try session.expire()
        #expect(session.events.map(\.kind) == [.notified, .present, .unpresent, .expired])
        #expect(throws: SurveySessionError.closed(.expired)) { _ = try session.submit() }
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("unknown questions and changes off screen are refused")
    func misuse() throws {
        var session = makeSession(TestClock())
        #expect(throws: SurveySessionError.unknownQuestion("nope")) { try session.present("nope") }
        #expect(throws: SurveySessionError.notOnScreen("happy")) { try session.change("happy", to: .number(1)) }
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("survey_timings rows follow Beiwe's header, with milliseconds and quoting")
    func timingsCSV() throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_774_772_040.125))
        var session = makeSession(clock)
        try session.notified()
        try session.present("alone")
        clock.advance(by: 1)
        try session.change("alone", to: .string("No"))
        try session.present("doing")
        try session.change("doing", to: .string("Reading \"Emma\", alone"))
        _ = try session.submit(idempotencyKey: "k")

        let lines = session.timingsCSV().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "timestamp,question id,question type,question text,question answer options,answer,event")
        #expect(lines[1] == "1774772040125,,,,,,notified")
        #expect(lines[2] == "1774772040125,alone,radio_button,Are you alone?,[Yes; No],,present")
        #expect(lines[3] == "1774772041125,alone,radio_button,Are you alone?,[Yes; No],No,changed")
        #expect(lines[5] == #"1774772041125,doing,free_response,"What are you doing, and with whom?",,"Reading ""Emma"", alone",changed"#)
        #expect(lines.last == "")
        #expect(lines.dropLast().last?.hasSuffix(",submitted") == true)
    }

    @Test("answers are written as Beiwe shows them")
    func answerText() {
        let stamp = Date(timeIntervalSince1970: 0)
        func text(_ answer: JSONValue) -> String {
            SurveyTimingEvent(timestamp: stamp, kind: .changed, question: Self.happy, answer: answer).csvFields[5]
        }
        #expect(text(.number(72)) == "72")
        #expect(text(.number(2.5)) == "2.5")
        #expect(text(.array([.string("work"), .string("music")])) == "[work; music]")
        #expect(text(.bool(true)) == "true")
    }

    @Test("a session opens from the server's survey delivery")
    func fromDelivery() throws {
        let document: JSONValue = .object([
            "survey_type": .string("tracking_survey"), "settings": .object([:]),
            "content": .array([
                .object(["question_id": .string("happy"), "question_type": .string("slider"),
                         "question_text": .string("How happy?"), "min": .number(0), "max": .number(100)]),
                .object(["question_id": .string("alone"), "question_type": .string("radio_button"),
                         "question_text": .string("Alone?"),
                         "answers": .array([.object(["text": .string("Yes")]), .object(["text": .string("No")])])]),
            ]),
        ])
        let delivery = SurveyDelivery(surveyID: UUID(), version: 5, beepID: UUID(), document: document)
        let session = try SurveySession(delivery: delivery)
        #expect(session.questions.map(\.id) == ["happy", "alone"])
        #expect(session.questions[0].isSlider)
        #expect(session.questions[1].answerOptions == "[Yes; No]")
        #expect(session.surveyVersion == 5)
        #expect(session.beepID == delivery.beepID)
    }
}

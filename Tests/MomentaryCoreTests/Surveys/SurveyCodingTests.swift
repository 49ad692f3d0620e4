import Foundation
import Testing
@testable import MomentaryCore

@Suite("Survey documents: reading and writing JSON")
struct SurveyCodingTests {
    private func roundTrip(_ document: SurveyDocument) throws -> SurveyDocument {
        let data = try JSONEncoder().encode(document)
        return try JSONDecoder().decode(SurveyDocument.self, from: data)
    }

    @Test("Every question type survives encoding and decoding", arguments: SurveyFixtures.allKinds.content)
    func everyQuestionTypeRoundTrips(question: SurveyQuestion) throws {
        let document = SurveyDocument(content: [question])
        #expect(try roundTrip(document) == document)
    }

    @Test("A whole document round-trips, with identical bytes the second time")
    func documentRoundTripsByteForByte() throws {
        let first = try SurveyFixtures.allKinds.jsonData()
        let decoded = try SurveyDocument(jsonData: first)
        #expect(decoded == SurveyFixtures.allKinds)
        #expect(try decoded.jsonData() == first)
    }

    @Test("The fixture covers every question type")
    func fixtureCoversEveryType() {
        #expect(Set(SurveyFixtures.allKinds.content.map(\.type)) == Set(QuestionType.allCases))
    }

    @Test("A Beiwe-shaped document decodes, keeping order, settings and unknown fields")
    func beiweDocumentDecodes() throws {
        let document = try SurveyFixtures.survey("""
        {
          "content": [
            {"question_id": "a1", "question_type": "info_text_box", "question_text": "Welcome", "display_if": null},
            {"question_id": "b2", "question_type": "slider", "question_text": "Mood?", "min": "1", "max": "5",
             "display_if": null, "legacy_flag": 7},
            {"question_id": "c3", "question_type": "radio_button", "question_text": "Sleep well?",
             "answers": [{"text": "Yes"}, {"text": "No"}], "display_if": {"==": ["b2", 3]}},
            {"question_id": "d4", "question_type": "checkbox", "question_text": "Symptoms",
             "answers": [{"text": "Cough"}, {"text": "Fever"}], "required": true,
             "display_if": {"and": [{">": ["b2", 1]}, {"not": {"==": ["c3", 1]}}]}},
            {"question_id": "e5", "question_type": "free_response", "question_text": "Hours slept",
             "text_field_type": "NUMERIC"},
            {"question_id": "f6", "question_type": "date", "question_text": "Date?"},
            {"question_id": "g7", "question_type": "time", "question_text": "Time?"},
            {"question_id": "h8", "question_type": "date_time", "question_text": "When?"}
          ],
          "settings": {"randomize": false, "number_of_random_questions": null, "trigger_on_first_download": true},
          "survey_type": "tracking_survey",
          "timings": [[], [36000], [], [], [], [], [72000]],
          "_id": "5a1b"
        }
        """)
        #expect(document.content.map(\.id) == ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"])
        #expect(document.content[1].kind == .slider(SliderScale(min: 1, max: 5)))
        #expect(document.content[1].extraFields == ["legacy_flag": .number(7)])
        #expect(document.content[0].displayIf == nil)
        #expect(document.content[2].kind == .radioButton([ChoiceOption("Yes"), ChoiceOption("No")]))
        #expect(document.content[2].displayIf == .compare(questionID: "b2", .equal, 3))
        #expect(document.content[3].required)
        #expect(document.content[3].displayIf == .and([
            .compare(questionID: "b2", .greaterThan, 1), .not(.compare(questionID: "c3", .equal, 1)),
        ]))
        #expect(document.content[4].kind == .freeResponse(.numeric))
        #expect(document.settings["trigger_on_first_download"] == .bool(true))
        #expect(document.settings["number_of_random_questions"] == .null)
        #expect(document.timings?.secondsByWeekday[1] == [36_000])
        #expect(document.problems().isEmpty)

        let rewritten = try JSONDecoder().decode(JSONValue.self, from: document.jsonData())
        #expect(rewritten.objectValue?["_id"] == .string("5a1b"))
        #expect(rewritten.objectValue?["settings"] == .object([
            "randomize": .bool(false), "number_of_random_questions": .null, "trigger_on_first_download": .bool(true),
        ]))
    }

    @Test("A survey without timings writes none (new-style studies)")
    func noTimingsWritten() throws {
        let document = SurveyDocument(content: [SurveyQuestion(id: "q", text: "Q?", kind: .yesNo)])
        let json = try JSONDecoder().decode(JSONValue.self, from: document.jsonData())
        #expect(json.objectValue?["timings"] == nil)
        #expect(json.objectValue?["survey_type"] == .string("tracking_survey"))
    }

    @Test(
        "Unreadable documents fail with a message naming the question and field",
        arguments: [
            (#"{"content": [{"question_id": "q1", "question_type": "x", "question_text": "?"}]}"#,
             ["question 1", "q1", "unknown question_type “x”"]),
            (#"{"content": [{"question_id": "a", "question_type": "yes_no", "question_text": "?"},"#
                + #"{"question_id": "s", "question_type": "slider", "question_text": "?", "min": "low", "max": 5}]}"#,
             ["question 2", "“s”", "“min” must be a number", "low"]),
            (#"{"content": [{"question_id": "s", "question_type": "slider", "question_text": "?", "max": 5}]}"#,
             ["“s”", "min", "max"]),
            (#"{"content": [{"question_id": "r", "question_type": "radio_button", "question_text": "?", "answers": [{"value": "1"}]}]}"#,
             ["“r”", "option 1", "“text” is missing"]),
            (#"{"content": [{"question_id": "r", "question_type": "radio_button", "question_text": "?", "answers": ["Yes"]}]}"#,
             ["“r”", "“answers” must be a list of objects"]),
            (#"{"content": [{"question_id": "f", "question_type": "free_response", "question_text": "?", "text_field_type": "EMAIL"}]}"#,
             ["“f”", "text_field_type “EMAIL”"]),
            (#"{"content": [{"question_id": "q", "question_type": "yes_no", "question_text": "?", "required": "yes"}]}"#,
             ["“q”", "“required” must be true or false"]),
            (#"{"content": [{"question_id": "q", "question_text": "?"}]}"#, ["“q”", "question_type", "missing"]),
            (#"{"questions": []}"#, ["content"]),
            (#"{"content": [], "survey_type": "poll"}"#, ["survey_type “poll”"]),
            (#"{"content": [], "timings": [[1, "noon"]]}"#, ["timings", "noon"]),
            (#"[1, 2]"#, ["JSON object"]),
            (#"{"content": "#, ["not valid JSON"]),
        ])
    func unreadableDocumentsExplainThemselves(json: String, fragments: [String]) {
        do {
            _ = try SurveyDocument(jsonData: Data(json.utf8))
            Issue.record("expected a format error for \(json)")
        } catch {
            for fragment in fragments {
                #expect(error.message.localizedCaseInsensitiveContains(fragment), "\(error.message) lacks \(fragment)")
            }
        }
    }

    @Test("JSONDecoder reports format errors through DecodingError with the same message")
    func decoderCarriesMessage() {
        let json = #"{"content": [{"question_id": "q9", "question_type": "rating", "question_text": "?"}]}"#
        #expect {
            try JSONDecoder().decode(SurveyDocument.self, from: Data(json.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription.contains("“q9”") && context.debugDescription.contains("rating")
        }
    }

    @Test("A submitted answer uses the wire keys question_id and answer")
    func submittedAnswerWireShape() throws {
        let decoded = try JSONDecoder().decode([SubmittedAnswer].self, from: Data("""
        [{"question_id": "happy", "answer": 72}, {"question_id": "working", "answer": true},
         {"question_id": "skipped", "answer": null}, {"question_id": "absent"},
         {"question_id": "doing", "answer": ["Talking", "Drinking"]}]
        """.utf8))
        #expect(decoded == [
            SubmittedAnswer(questionID: "happy", answer: .number(72)),
            SubmittedAnswer(questionID: "working", answer: .bool(true)),
            SubmittedAnswer(questionID: "skipped", answer: nil),
            SubmittedAnswer(questionID: "absent", answer: nil),
            SubmittedAnswer(questionID: "doing", answer: .array([.string("Talking"), .string("Drinking")])),
        ])
        let encoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(decoded[2]))
        #expect(encoded == .object(["question_id": .string("skipped"), "answer": .null]))
    }
}

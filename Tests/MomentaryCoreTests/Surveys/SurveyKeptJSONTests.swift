import Foundation
import Testing
@testable import MomentaryCore

@Suite("Survey documents written back as they were read")
struct SurveyKeptJSONTests {
    /// A Beiwe editor's document: `null`s, numbers as strings, no `step`, no `text_field_type`,
    /// no `allows_free_entry`, no `answers`, `"required": false`, no `survey_type`, no `settings`.
    let beiwe = """
        {"content": [
          {"question_id": "a1", "question_type": "info_text_box", "question_text": "Welcome", "display_if": null},
          {"question_id": "b2", "question_type": "slider", "question_text": "Mood?", "min": "1", "max": "5", "display_if": null, "required": false},
          {"question_id": "c3", "question_type": "free_response", "question_text": "Why?"},
          {"question_id": "d4", "question_type": "tokens", "question_text": "Tags"},
          {"question_id": "e5", "question_type": "checkbox", "question_text": "Any?"}
        ]}
        """

    func value(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }

    @Test("an unchanged document encodes to the same JSON value it was read from: no defaults added, nulls and strings kept")
    func sameValue() throws {
        let read = try SurveyDocument(jsonData: Data(beiwe.utf8))
        let written = try JSONEncoder().encode(read)
        #expect(try value(written) == value(Data(beiwe.utf8)))
        // Read again and written again: still the same.
        #expect(try value(JSONEncoder().encode(try SurveyDocument(jsonData: written))) == value(Data(beiwe.utf8)))
    }

    @Test("what apps are sent (`json`) still has every field filled in")
    func appsGetTheModel() throws {
        let read = try SurveyDocument(jsonData: Data(beiwe.utf8))
        let slider = try #require(read.json.objectValue?["content"]?.arrayValue?[1].objectValue)
        #expect(slider["max"] == .number(5))
        #expect(slider["step"] == .number(1))
        #expect(slider["display_if"] == nil)
    }

    @Test("a changed question is written as the model says, the unchanged ones as they were read")
    func changedQuestion() throws {
        var document = try SurveyDocument(jsonData: Data(beiwe.utf8))
        document.content[0].text = "Hello"
        let written = try #require(try value(JSONEncoder().encode(document)).objectValue)
        let content = try #require(written["content"]?.arrayValue)
        #expect(content[0].objectValue?["question_text"] == .string("Hello"))
        #expect(content[0].objectValue?["display_if"] == nil)
        #expect(content[1].objectValue?["max"] == .string("5"), "the unchanged slider keeps its string")
        #expect(content[1].objectValue?["display_if"] == .null)
        #expect(written["survey_type"] == .string("tracking_survey"))
    }

    @Test("equality ignores how a question was written")
    func equalityIgnoresTheKeptObject() throws {
        let read = try SurveyDocument(jsonData: Data(beiwe.utf8))
        let remade = try SurveyDocument(json: read.json)
        #expect(read == remade)
        #expect(read.hashValue == remade.hashValue)
    }
}

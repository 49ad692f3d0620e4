import Foundation
@testable import MomentaryCore
import Testing

/// Misspelt or misplaced fields are reported; fields of someone else's are still kept in silence.
@Suite("Survey field names")
struct SurveyFieldNameTests {
    func problems(_ json: String) throws -> [String] {
        try SurveyDocument(jsonData: Data(json.utf8)).problems().map(\.message)
    }

    @Test("near-misses of known names are reported with the name meant, at every level")
    func nearMisses() throws {
        let found = try problems("""
        {"setings": {}, "content": [
          {"question_id": "a", "question_type": "slider", "question_text": "A?", "min": 0, "max": 10, "minLabel": "low"},
          {"question_id": "b", "question_type": "radio_button", "question_text": "B?", "display-if": null,
           "answers": [{"text": "One", "valeu": "1"}]}
        ]}
        """)
        #expect(found == [
            "The survey: “setings” is not a field; perhaps “settings” was meant.",
            "Question 1 (“a”): “minLabel” is not a field; perhaps “min_label” was meant.",
            "Question 2 (“b”): “display-if” is not a field; perhaps “display_if” was meant.",
            "Question 2 (“b”): option 1 in “answers”: “valeu” is not a field; perhaps “value” was meant.",
        ])
    }

    @Test("a field of another question type is reported; a field far from every name is kept as it was")
    func otherTypesAndForeignFields() throws {
        let json = """
        {"content": [
          {"question_id": "n", "question_type": "number", "question_text": "How many?", "answers": [], "beiwe_note": "kept"}
        ], "study_notes": "kept too"}
        """
        #expect(try problems(json) == ["Question 1 (“n”): “answers” is not used by a number question."])
        let document = try SurveyDocument(jsonData: Data(json.utf8))
        #expect(document.content[0].extraFields["beiwe_note"] == .string("kept"))
        #expect(document.extraFields["study_notes"] == .string("kept too"))
    }

    @Test("the names checked are the names the reader reads, for every question type")
    func namesMatchTheReader() throws {
        let parameters: [QuestionType: String] = [
            .slider: #""min": 0, "max": 10, "step": 1, "min_label": "a", "max_label": "b", "labels": ["x"]"#,
            .radioButton: #""answers": [{"text": "A", "value": "a"}]"#,
            .checkbox: #""answers": [{"text": "A", "value": "a"}]"#,
            .people: #""answers": [{"text": "A", "value": "a"}]"#,
            .freeResponse: #""text_field_type": "NUMERIC""#,
            .number: #""min": 0, "max": 10, "step": 1"#,
            .tokens: #""suggested_tokens": ["a"], "allows_free_entry": false, "max_count": 2"#,
            .audioRecording: #""max_duration_seconds": 30"#,
        ]
        for type in QuestionType.allCases {
            let extra = parameters[type].map { ", " + $0 } ?? ""
            let json = #"{"question_id": "q", "question_type": "\#(type.rawValue)", "question_text": "Q?", "required": false, "display_if": null\#(extra)}"#
            let object = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)).objectValue)
            let question = try SurveyQuestion(json: object, position: 0)
            #expect(question.extraFields.isEmpty, "\(type): every field was read")
            let written = Set(question.jsonObject.keys).subtracting(SurveyFieldNames.question)
            #expect(written.isSubset(of: SurveyFieldNames.parameters(of: type)), "\(type) writes \(written)")
            #expect(SurveyFieldNames.parameters(of: type).isSubset(of: Set(object.keys)), "\(type): the example uses every name")
        }
    }

    @Test("edit distance counts a swap of neighbours as one edit; short names allow only one")
    func distance() {
        #expect(SurveyFieldNames.editDistance("requried", "required") == 1)
        #expect(SurveyFieldNames.editDistance("min_lable", "min_label") == 1)
        #expect(SurveyFieldNames.editDistance("", "max") == 3)
        #expect(SurveyFieldNames.likelyMeant("mix", among: ["min", "max"]) == "max")
        #expect(SurveyFieldNames.likelyMeant("mode", among: ["min", "max"]) == nil)
        #expect(SurveyFieldNames.likelyMeant("Required", among: SurveyFieldNames.question) == "required")
    }
}

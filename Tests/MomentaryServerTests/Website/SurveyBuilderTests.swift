import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

/// The question-by-question builder: forms write questions the JSON reader then checks.
@Suite("Website survey builder")
struct SurveyBuilderTests {
    /// The current document of the world's survey.
    func document(_ world: WebsiteWorld, _ app: Application) async throws -> (version: Int, document: SurveyDocument) {
        let survey = try #require(try await Survey.find(world.surveyA, on: app.db))
        let version = try await SurveyCatalog.currentVersion(of: survey, on: app.db)
        return (survey.currentVersion, try SurveyCatalog.document(of: version))
    }

    @Test("questions are added from forms, with options, ranges, labels and a condition; edits keep what the form cannot show")
    func addAndEdit() async throws {
        try await withSignedInDeveloper { app, world, client in
            let base = "/studies/study-a/surveys/\(world.surveyA)/questions"
            let (version, before) = try await document(world, app)
            let form = try await client.get("\(base)/new?type=slider")
            #expect(form.status == .ok)
            #expect(form.body.string.contains("id=\"min_label\""))

            #expect(try await client.post("\(base)?type=slider", [
                ("version", "\(version)"), ("question_id", "energy"), ("text", "How energetic are you?"), ("required", "on"),
                ("min", "0"), ("max", "10"), ("step", "1"), ("min_label", "Drained"), ("max_label", "Full of beans"),
            ]).status == .seeOther)
            #expect(try await client.post("\(base)?type=radio_button", [
                ("version", "\(version + 1)"), ("question_id", "why"), ("text", "Why so low?"),
                ("options", "Tired = tired\nIll\n\n  Bored = bored "),
                ("condition_question", "energy"), ("condition_operator", "<"), ("condition_value", "3"),
            ]).status == .seeOther)
            #expect(try await client.post("\(base)?type=yes_no", [
                ("version", "\(version + 2)"), ("question_id", "tired_now"), ("text", "Still tired?"),
                ("condition_question", "why"), ("condition_operator", "=="), ("condition_value", "tired"),
            ]).status == .seeOther)
            #expect(try await document(world, app).document.question(withID: "tired_now")?.displayIf
                    == .matches(questionID: "why", .equal, "tired"), "a value that is not a number names an option")
            // Two comparisons joined by “or”, shown again as two rows when the question is edited.
            let either = DisplayCondition.or([.compare(questionID: "energy", .lessThan, 2), .matches(questionID: "why", .notEqual, "bored")])
            #expect(try await client.post("\(base)/\(before.content.count + 3)", [
                ("version", "\(version + 3)"), ("question_id", "tired_now"), ("text", "Still tired?"),
                ("condition_question", "energy"), ("condition_operator", "<"), ("condition_value", "2"), ("condition_join", "or"),
                ("condition_question_2", "why"), ("condition_operator_2", "!="), ("condition_value_2", "bored"),
            ]).status == .seeOther)
            #expect(try await document(world, app).document.question(withID: "tired_now")?.displayIf == either)
            let twoRows = try await client.get("\(base)/\(before.content.count + 3)").body.string
            #expect(twoRows.contains("<option value=\"or\" selected>") && twoRows.contains("value=\"bored\""))
            #expect(twoRows.contains("<option value=\"why\" selected>") && !twoRows.contains("which the form cannot show"))
            let noJoin = try await client.post("\(base)/\(before.content.count + 3)", [
                ("version", "\(version + 4)"), ("question_id", "tired_now"), ("text", "Still tired?"),
                ("condition_question", "energy"), ("condition_operator", "<"), ("condition_value", "2"), ("condition_join", "xor"),
                ("condition_question_2", "why"), ("condition_operator_2", "!="), ("condition_value_2", "bored"),
            ])
            #expect(noJoin.status == .unprocessableEntity && noJoin.body.string.contains("both comparisons must hold (and) or either one (or)"))
            #expect(try await client.post("\(base)/\(before.content.count + 3)/delete", [("version", "\(version + 4)")]).status == .seeOther)
            let (after, added) = try await document(world, app)
            #expect(after == version + 5)
            #expect(added.content.count == before.content.count + 2)
            let energy = try #require(added.question(withID: "energy"))
            #expect(energy.kind == .slider(SliderScale(min: 0, max: 10, step: 1, minLabel: "Drained", maxLabel: "Full of beans", labels: nil)))
            #expect(energy.required)
            let why = try #require(added.question(withID: "why"))
            #expect(why.kind.options.map(\.text) == ["Tired", "Ill", "Bored"])
            #expect(why.kind.options.map(\.value) == ["tired", nil, "bored"])
            #expect(why.displayIf == .compare(questionID: "energy", .lessThan, 3))

            // Editing shows the question as it is, and keeps a condition the form cannot show.
            var document = added
            let number = document.content.count
            document.content[number - 1].displayIf = .not(.compare(questionID: "energy", .greaterThan, 5))
            document.content[number - 1].extraFields["study_note"] = .string("kept")
            let survey = try #require(try await Survey.find(world.surveyA, on: app.db))
            try await SurveyStore.saveVersion(of: survey, document: try SurveyStore.text(of: document), authorID: nil, on: app.db, now: Date())
            let editing = try await client.get("\(base)/\(number)").body.string
            #expect(editing.contains("Tired = tired\nIll\nBored = bored"))
            #expect(editing.contains("a condition the form cannot show (with “not”, or more than two comparisons); it is kept as it is"))
            #expect(try await client.post("\(base)/\(number)", [
                ("version", "\(after + 1)"), ("question_id", "why"), ("text", "Why so low, do you think?"),
                ("options", "Tired = tired\nIll\nBored = bored"),
            ]).status == .seeOther)
            let edited = try #require(try await self.document(world, app).document.question(withID: "why"))
            #expect(edited.text == "Why so low, do you think?")
            #expect(edited.displayIf == .not(.compare(questionID: "energy", .greaterThan, 5)))
            #expect(edited.extraFields["study_note"] == .string("kept"))
        }
    }

    @Test("a question the rules refuse is shown again with the problems, and nothing is saved")
    func refusals() async throws {
        try await withSignedInDeveloper { app, world, client in
            let base = "/studies/study-a/surveys/\(world.surveyA)/questions"
            let (version, before) = try await document(world, app)
            let existing = before.content[0].id
            _ = try await client.get("\(base)/new?type=number")
            let duplicate = try await client.post("\(base)?type=number", [
                ("version", "\(version)"), ("question_id", existing), ("text", "How many?"), ("min", "lots")])
            #expect(duplicate.status == .unprocessableEntity)
            #expect(duplicate.body.string.contains(htmlEscaped("“min” must be a number")), "the reader's own message")
            #expect(duplicate.body.string.contains("value=\"lots\""), "the form keeps what was typed")
            let reused = try await client.post("\(base)?type=number", [
                ("version", "\(version)"), ("question_id", existing), ("text", "How many?")])
            #expect(reused.status == .unprocessableEntity)
            #expect(reused.body.string.contains(htmlEscaped("question_id “\(existing)” is already used by question 1")))
            let noValue = try await client.post("\(base)?type=yes_no", [
                ("version", "\(version)"), ("question_id", "fresh"), ("text", "Fresh?"), ("condition_question", existing), ("condition_operator", "==")])
            #expect(noValue.status == .unprocessableEntity)
            #expect(noValue.body.string.contains("needs a number"))
            let freeText = try await client.get("\(base)/new?type=free_response").body.string
            #expect(freeText.contains(#"<option value="SINGLE_LINE_TEXT" selected>"#), "a new free-text question starts as single-line text")
            #expect(try await client.get("\(base)/new?type=multiple_choice").status == .badRequest)
            #expect(try await client.get("\(base)/99").status == .notFound)

            let stale = try await client.post("\(base)?type=yes_no", [("version", "\(version - 1)"), ("question_id", "late"), ("text", "Late?")])
            #expect(stale.status == .conflict, "a form opened on an older version does not overwrite a newer one")
            #expect(try await document(world, app).version == version)
        }
    }

    @Test("questions move and are deleted; a move or deletion that would break a condition is refused")
    func moveAndDelete() async throws {
        try await withSignedInDeveloper { app, world, client in
            let editor = "/studies/study-a/surveys/\(world.surveyA)"
            let base = "\(editor)/questions"
            var (version, document) = try await self.document(world, app)
            let page = try await client.get(editor).body.string
            #expect(page.contains("\(base)/1/move") && page.contains("\(base)/1/delete"))
            let ids = document.content.map(\.id)

            #expect(try await client.post("\(base)/1/move", [("version", "\(version)"), ("direction", "down")]).status == .seeOther)
            (version, document) = try await self.document(world, app)
            #expect(document.content.map(\.id) == [ids[1], ids[0]] + ids.dropFirst(2))
            #expect(try await client.post("\(base)/1/move", [("version", "\(version)"), ("direction", "up")]).status == .badRequest)

            // A question that depends on the first one cannot go above it, nor can the first go.
            #expect(try await client.post("\(base)?type=yes_no", [
                ("version", "\(version)"), ("question_id", "follow"), ("text", "Follow-up?"),
                ("condition_question", document.content[0].id), ("condition_operator", ">="), ("condition_value", "0")]).status == .seeOther)
            (version, document) = try await self.document(world, app)
            let last = document.content.count
            var moves = 0
            var response = try await client.post("\(base)/\(last)/move", [("version", "\(version)"), ("direction", "up")])
            while response.status == .seeOther, moves < last {
                moves += 1
                (version, document) = try await self.document(world, app)
                response = try await client.post("\(base)/\(last - moves)/move", [("version", "\(version)"), ("direction", "up")])
            }
            #expect(response.status == .unprocessableEntity)
            #expect(response.body.string.contains("Not moved"))
            #expect(response.body.string.contains("comes later"))
            let asked = try await client.get("\(base)/1/delete")
            #expect(asked.status == .ok)
            #expect(asked.body.string.contains("cannot be deleted while these questions are shown or hidden by its answer"))
            #expect(asked.body.string.contains("“follow”") && !asked.body.string.contains("<button type=\"submit\">Delete"),
                    "the page names the question that depends on it and offers no button")
            let refused = try await client.post("\(base)/1/delete", [("version", "\(version)")])
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains("Not deleted") && refused.body.string.contains("“follow”"),
                    "the reason is on the page, not a bare error")
            let confirm = try await client.get("\(base)/\(document.content.count - moves)/delete").body.string
            #expect(confirm.contains("Delete question \(document.content.count - moves)</button>") && confirm.contains("Keep it"))

            let count = document.content.count
            #expect(try await client.post("\(base)/\(count - moves)/delete", [("version", "\(version)")]).status == .seeOther)
            (version, document) = try await self.document(world, app)
            #expect(document.content.count == count - 1)
            #expect(document.question(withID: "follow") == nil)
        }
    }

    @Test("question ids are plain names: others are refused with the rule and a suggestion; a version saved before the rule still shows, with a request to rename")
    func questionIDsArePlainNames() async throws {
        try await withSignedInDeveloper { app, world, client in
            let editor = "/studies/study-a/surveys/\(world.surveyA)"
            let base = "\(editor)/questions"
            let (version, document) = try await self.document(world, app)
            #expect(try await client.get(editor).status == .ok)
            for bad in ["positive affect", "2nd_mood", "mood-today", "naïve", String(repeating: "a", count: 65)] {
                let refused = try await client.post("\(base)?type=yes_no", [("version", "\(version)"), ("question_id", bad), ("text", "Well?")])
                #expect(refused.status == .unprocessableEntity, "\(bad)")
                #expect(refused.body.string.contains("letters, digits and _ only, starting with a letter, at most 64 characters"), "\(bad)")
            }
            let spaced = try await client.post("\(base)?type=yes_no", [("version", "\(version)"), ("question_id", "positive affect"), ("text", "Well?")])
            #expect(spaced.body.string.contains("rename it, for example to “positive_affect”"))
            #expect(try await client.post("\(base)?type=yes_no", [("version", "\(version)"), ("question_id", "Positive_affect_2"), ("text", "Well?")]).status == .seeOther)

            // A version saved before the rule: participants still get it; the editor asks for the rename.
            var legacy = try await self.document(world, app).1
            legacy.content[0].id = "positive affect"
            let survey = try #require(try await Survey.find(world.surveyA, on: app.db))
            try await SurveyStore.saveVersion(of: survey, document: try SurveyStore.text(of: legacy), authorID: nil, on: app.db, now: Date())
            let page = try await client.get(editor).body.string
            #expect(page.contains("saved under older rules") && page.contains("“positive_affect”"))
            #expect(document.content.count + 1 == legacy.content.count)
        }
    }
}

import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

@Suite("Website survey editor, studies, invitees and pages", .serialized)
struct WebsiteSurveyEditorTests {
    static let validDocument = (try? SurveyStore.text(of: SampleSurveys.experienceSampling)) ?? ""

    /// The sample survey with its second question given the first one's id.
    static func duplicatedIDDocument() throws -> (text: String, id: String) {
        var document = SampleSurveys.experienceSampling
        document.content[1].id = document.content[0].id
        return (try SurveyStore.text(of: document), document.content[0].id)
    }

    @Test("a valid document is saved as a new version; an invalid one is shown with its problems and not saved")
    func editor() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let path = "/studies/study-a/surveys/\(world.surveyA)"
            let page = try await client.get(path)
            #expect(page.status == .ok)
            #expect(page.body.string.contains("<iframe class=\"app-preview\" src=\"\(path)/preview\""), "the app's own screen previews the survey")

            let (invalid, id) = try Self.duplicatedIDDocument()
            let problems = SurveyDocument.problemsFor(invalid)
            #expect(!problems.isEmpty)
            let refused = try await client.post(path, [("document", invalid)])
            #expect(refused.status == .unprocessableEntity)
            for problem in problems { #expect(refused.body.string.contains(htmlEscaped(problem)), "shows: \(problem)") }
            #expect(refused.body.string.contains(id))
            let unreadable = try await client.post(path, [("document", "{not json")])
            #expect(unreadable.status == .unprocessableEntity)
            #expect(unreadable.body.string.contains("cannot be read"))
            #expect(try await versions(world.surveyA, app.db) == 1)

            let saved = try await client.post(path, [("document", Self.validDocument)])
            #expect(saved.status == .seeOther)
            #expect(try await versions(world.surveyA, app.db) == 2)
            let survey = try #require(try await Survey.find(world.surveyA, on: app.db))
            #expect(survey.currentVersion == 2)
        }
    }

    @Test("a survey is added from the example of its kind; a missing name, a duplicate or a second registration survey is refused")
    func addSurvey() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/study-a/surveys")
            let added = try await client.post("/studies/study-a/surveys", [("name", "Evening check"), ("kind", "esm")])
            #expect(added.status == .seeOther)
            let survey = try #require(try await Survey.query(on: app.db).filter(\.$name == "Evening check").first())
            #expect(survey.$study.id == world.studyA.id)
            #expect(survey.kind == .esm)
            #expect(try await versions(survey.requireID(), app.db) == 1)
            #expect(added.headers.first(name: .location) == "/studies/study-a/surveys/\(try survey.requireID())")
            let registration = try await client.post("/studies/study-a/surveys", [("name", "About you"), ("kind", "registration")])
            #expect(registration.status == .seeOther)

            let count = try await Survey.query(on: app.db).count()
            for (fields, reason) in [
                ([("name", " "), ("kind", "esm")], "needs a name"),
                ([("name", "evening CHECK"), ("kind", "esm")], "already has a survey called"),
                ([("name", "Second"), ("kind", "registration")], "already has a registration survey"),
                ([("name", "Odd"), ("kind", "weekly")], "Choose whether"),
            ] {
                let refused = try await client.post("/studies/study-a/surveys", fields)
                #expect(refused.status == .unprocessableEntity, "\(fields)")
                #expect(refused.body.string.contains(htmlEscaped(reason)) || refused.body.string.contains(reason), "\(fields): \(reason)")
            }
            #expect(try await Survey.query(on: app.db).count() == count)
        }
    }

    @Test("a large survey document (beyond Vapor's 16 KB default) is saved; a form over 1 MB is refused with 413")
    func largeForms() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let path = "/studies/study-a/surveys/\(world.surveyA)"
            _ = try await client.get(path)
            var document = SampleSurveys.experienceSampling
            let template = document.content[0]
            for index in 0..<150 {
                var question = template
                question.id = "extra_\(index)"
                document.content.append(question)
            }
            let text = try SurveyStore.text(of: document)
            #expect(text.utf8.count > 16_384)
            let saved = try await client.post(path, [("document", text)])
            #expect(saved.status == .seeOther)
            #expect(try await versions(world.surveyA, app.db) == 2)
            let tooLarge = try await client.post(path, [("document", String(repeating: "x", count: CSRFMiddleware.maximumFormBytes + 1))])
            #expect(tooLarge.status == .payloadTooLarge)
            #expect(try await versions(world.surveyA, app.db) == 2)
        }
    }

    @Test("a study is created and edited through the forms; a bad value is named and nothing is saved")
    func studies() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/new")
            let created = try await client.post("/studies", StudyFormFields.valid(slug: "mood", name: "Mood <study>"))
            #expect(created.status == .seeOther)
            let study = try #require(try await Study.query(on: app.db).filter(\.$slug == "mood").first())
            #expect(study.defaultStartMinutes == 9 * 60 && study.defaultEndMinutes == 21 * 60 + 30)
            #expect(study.invitationOnly && study.maxBeepsPerDay == 5 && study.defaultTimeZone == "Europe/Berlin")
            let list = try await client.get("/studies")
            #expect(list.body.string.contains("Mood &lt;study&gt;"), "names are escaped")

            var bad = StudyFormFields.valid(slug: "mood", name: "Mood")
            bad.removeAll { $0.0 == "defaultTimeZone" || $0.0 == "defaultBeepsPerDay" }
            bad += [("defaultTimeZone", "Mars/Olympus"), ("defaultBeepsPerDay", "9")]
            let refused = try await client.post("/studies/mood/settings", bad)
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains("Mars/Olympus"))
            #expect(refused.body.string.contains("The preset of 9 beeps a day lies outside the range 1 to 5."))
            #expect(try await Study.query(on: app.db).filter(\.$slug == "mood").first()?.name == "Mood <study>")
        }
    }

    @Test("invitees are listed Invited, Participating, Restricted, Withdrawn with counts; new codes are shown once")
    func invitees() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.researcher)
            _ = try await client.get("/studies/study-a/invitees")
            #expect(try await client.post("/studies/study-a/invitees/\(world.codesA[3])/restrict").status == .seeOther)
            let created = try await client.post("/studies/study-a/invitees", [("count", "3")])
            let location = try #require(created.headers.first(name: .location))
            let page = try await client.get(location)
            let body = page.body.string
            let newCodes = try await Invitee.query(on: app.db).filter(\.$study.$id == world.studyA.requireID()).all()
                .map(\.code).filter { !world.codesA.contains($0) }
            #expect(newCodes.count == 3)
            for code in newCodes { #expect(body.contains(code)) }
            #expect(body.contains("9 codes: 8 Invited, 0 Participating, 1 Restricted, 0 Withdrawn"))
            /// The row of a code, from its first cell to the row's end.
            func row(_ code: String) throws -> (start: String.Index, text: Substring) {
                let start = try #require(body.range(of: "<td class=\"codes\">\(code)</td>")).lowerBound
                let end = try #require(body[start...].range(of: "</tr>")).lowerBound
                return (start, body[start..<end])
            }
            let restricted = try row(world.codesA[3])
            #expect(restricted.text.contains("<td>Restricted</td>"))
            for code in world.codesA where code != world.codesA[3] {
                let invited = try row(code)
                #expect(invited.text.contains("<td>Invited</td>"))
                #expect(invited.start < restricted.start, "invited codes come before restricted ones")
                #expect(invited.text.contains("/join/study-a?code=\(code)</a>"), "each code has its join link")
            }
            #expect(body.contains("3 new codes made"), "the banner says how many codes were made")
            let qr = try await client.get("/studies/study-a/invitees/\(world.codesA[0])/qr.svg")
            #expect(qr.status == .ok && qr.headers.contentType?.subType == "svg+xml")
            #expect(qr.body.string.hasPrefix("<svg") && qr.body.string.contains("Join link with code \(world.codesA[0])"))
            #expect(try await client.get("/studies/study-a/invitees/NOSUCHCODE/qr.svg").status == .notFound)
            let sheet = try await client.get("/studies/study-a/invitees?sheet=1&status=invited").body.string
            #expect(sheet.contains("class=\"code-sheet\"") && sheet.contains("/invitees/\(world.codesA[0])/qr.svg"))
            #expect(try await client.post("/studies/study-a/invitees", [("count", "0")]).status == .unprocessableEntity)
        }
    }

    @Test("participants show compliance, a server-drawn chart and the quiet filter; responses list newest first")
    func participantsAndResponses() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let participants = try await client.get("/studies/study-a/participants")
            #expect(participants.status == .ok)
            #expect(participants.body.string.contains("1 participants"))
            let quiet = try await client.get("/studies/study-a/participants?filter=quiet")
            #expect(quiet.status == .ok)
            #expect(quiet.body.string.contains("no answer in 3 days"))
            let responses = try await client.get("/studies/study-a/responses")
            #expect(responses.body.string.contains("Kitchen in Study A"))
            #expect(!responses.body.string.contains("Kitchen in Study B"))
            #expect(responses.body.string.contains("GB"))
        }
    }

    private func versions(_ surveyID: UUID, _ db: any Database) async throws -> Int {
        try await SurveyVersion.query(on: db).filter(\.$survey.$id == surveyID).count()
    }
}

func htmlEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        .replacingOccurrences(of: "'", with: "&#39;")
}

extension SurveyDocument {
    static func problemsFor(_ text: String) -> [String] {
        (try? SurveyDocument(jsonData: Data(text.utf8)))?.problems().map(\.message) ?? []
    }
}

@Suite("Study settings: one set of rules, the overview, confirmations")
struct StudySettingsRulesTests {
    @Test("settings no participant could register with are refused on the page, each message next to its field")
    func impossibleSettingsAreRefused() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/new")
            func fields(_ changes: [(String, String)]) -> [(String, String)] {
                var fields = StudyFormFields.valid(slug: "tight", name: "Tight")
                fields.removeAll { field in changes.contains { $0.0 == field.0 } }
                return fields + changes
            }
            // 5 beeps at least 240 minutes apart cannot fit 09:00–21:00; 50 a day is not offered.
            let tooTight = try await client.post("/studies", fields([
                ("defaultBeepsPerDay", "5"), ("minGapMinutes", "240"), ("defaultStart", "09:00"), ("defaultEnd", "21:00"),
            ]))
            #expect(tooTight.status == .unprocessableEntity)
            #expect(tooTight.body.string.contains(#"id="minGapMinutes-problem""#))
            #expect(tooTight.body.string.contains(#"aria-describedby="minGapMinutes-problem""#))
            #expect(tooTight.body.string.contains("do not fit in"))
            let tooMany = try await client.post("/studies", fields([("maxBeepsPerDay", "50")]))
            #expect(tooMany.status == .unprocessableEntity)
            #expect(tooMany.body.string.contains(#"id="maxBeepsPerDay-problem""#))
            #expect(try await Study.query(on: app.db).filter(\.$slug == "tight").first() == nil)
        }
    }

    @Test("import and the website refuse the same settings with the same sentence")
    func importAgrees() throws {
        let rules = StudySignallingRules(
            minBeepsPerDay: 1, maxBeepsPerDay: 5, defaultBeepsPerDay: 5, minimumGapMinutes: 240,
            defaultStart: TimeOfDay("09:00")!, defaultEnd: TimeOfDay("21:00")!)
        let problem = try #require(rules.problems().first)
        #expect(problem.field == .minimumGap)
        var form = StudyForm(Study(slug: "tight", name: "Tight", now: Date()))
        form.consentText = "Fine."
        form.minBeepsPerDay = 1; form.maxBeepsPerDay = 5; form.defaultBeepsPerDay = 5; form.minGapMinutes = 240
        form.defaultStart = "09:00"; form.defaultEnd = "21:00"
        #expect(form.problems().map(\.message).contains(problem.message))
        let document = StudyDocument(
            format: StudyDocument.currentFormat, slug: "tight", name: "Tight", consentText: "Fine.", invitationOnly: false,
            scheduling: .server, randomSampling: true, defaultTimezone: "Europe/London", minGapMinutes: 240,
            beepsPerDay: .init(min: 1, max: 5, default: 5), defaultHours: .init(start: TimeOfDay("09:00")!, end: TimeOfDay("21:00")!),
            alertText: "How are you?", sounds: ["default"], maxDueAtOnce: 1000, surveys: [])
        #expect(document.problems().contains { $0.hasSuffix(problem.message) })
        // An imported study's surveys follow the website's "Add a survey" rules.
        var surveys = document
        let entry = { (name: String, kind: Survey.Kind) in
            StudyDocument.SurveyEntry(name: name, kind: kind, position: 0, active: true, document: SampleSurveys.registration, schedule: nil)
        }
        surveys.surveys = [entry("About you", .registration), entry("about YOU ", .esm), entry("Again", .registration),
                           entry(String(repeating: "x", count: 101), .esm)]
        let found = surveys.problems()
        for message in ["This study already has a survey called “about YOU”.",
                        "This study already has a registration survey; edit that one.", "A survey needs a name of 1 to 100 characters."] {
            #expect(found.contains(message), "\(message)")
        }
        // Overnight preset hours are allowed, as participants may choose them too.
        let night = StudySignallingRules(
            minBeepsPerDay: 1, maxBeepsPerDay: 3, defaultBeepsPerDay: 2, minimumGapMinutes: 60,
            defaultStart: TimeOfDay("22:00")!, defaultEnd: TimeOfDay("06:00")!)
        #expect(night.problems().isEmpty)
        let quarter = StudySignallingRules(
            minBeepsPerDay: 1, maxBeepsPerDay: 5, defaultBeepsPerDay: 2, minimumGapMinutes: 300,
            defaultStart: TimeOfDay("09:10")!, defaultEnd: TimeOfDay("21:00")!)
        #expect(Set(quarter.problems().map(\.field)) == [.minimumGap, .defaultStart])
    }

    @Test("the study's page lists what is missing before participants can join, or the join link when nothing is")
    func overviewSaysWhatIsMissing() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let ready = try await client.get("/studies/\(world.studyA.slug)")
            #expect(ready.body.string.contains("/join/\(world.studyA.slug)"))
            #expect(ready.body.string.contains("<a href=\"/studies/\(world.studyA.slug)/export\">Export</a>"), "the study menu links to Export")
            let empty = Study(slug: "empty", name: "Empty", now: Date())
            empty.invitationOnly = true
            try await empty.save(on: app.db)
            let page = try await client.get("/studies/empty").body.string
            #expect(page.contains("no active survey"))
            #expect(page.contains("no unused invitation codes"))
            #expect(!page.contains("/join/empty"))
        }
    }

    @Test("a save is confirmed on the page it leads to, and error pages keep a signed-in researcher's navigation")
    func confirmationsAndErrorPages() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/new")
            let created = try await client.post("/studies", StudyFormFields.valid(slug: "fresh", name: "Fresh"))
            #expect(created.headers.first(name: .location) == "/studies/fresh/settings?created=1")
            #expect(try await client.get("/studies/fresh/settings?created=1").body.string.contains(#"<p class="notice" role="status">Created."#))
            #expect(try await client.get("/studies/fresh/settings?saved=1").body.string.contains(#"<p class="notice" role="status">Saved.</p>"#))
            #expect(!(try await client.get("/studies/fresh/settings").body.string.contains(#"class="notice""#)))

            let missing = try await client.get("/studies/no-such-study")
            #expect(missing.status == .notFound)
            #expect(missing.body.string.contains("Sign out"), "the navigation stays")
            #expect(missing.body.string.contains("<a href=\"/studies\">Studies</a>"))
            _ = world
        }
    }
}

@Suite("Survey editor: the JSON as typed")
struct SurveyEditorJSONTests {
    @Test("the editor shows a slash as a slash, not as \\/")
    func slashes() {
        let shown = SurveyEditorRoutes.pretty(#"{"content":[{"question_text":"Work / school?"}]}"#)
        #expect(shown.contains("Work / school?") && !shown.contains(#"\/"#))
    }
}

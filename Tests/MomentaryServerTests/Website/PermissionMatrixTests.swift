import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// Every website action for every role, over HTTP: allowed exactly when the role's permissions
/// include what the action needs, refused with 403 otherwise, and a refused change changes nothing.
@Suite("Website permission matrix", .serialized)
struct WebsitePermissionMatrixTests {
    struct Action: Sendable, CustomStringConvertible {
        let description: String
        let needs: Permission
        let method: HTTPMethod
        let path: @Sendable (WebsiteWorld) -> String
        let fields: @Sendable (WebsiteWorld, String) -> [(String, String)]

        init(_ description: String, needs: Permission, _ method: HTTPMethod = .GET, path: @escaping @Sendable (WebsiteWorld) -> String,
             fields: @escaping @Sendable (WebsiteWorld, String) -> [(String, String)] = { _, _ in [] }) {
            self.description = description
            self.needs = needs
            self.method = method
            self.path = path
            self.fields = fields
        }
    }

    static let actions: [Action] = [
        Action("view responses", needs: .viewResponses, path: { _ in "/studies/study-a/responses" }),
        Action("view one response", needs: .viewResponses, path: { "/studies/study-a/responses/\($0.responseA)" }),
        Action("open the export form", needs: .exportResponses, path: { _ in "/studies/study-a/export" }),
        Action("download an export", needs: .exportResponses, path: { _ in "/studies/study-a/export/download?format=csv" }),
        Action("download a passive stream", needs: .exportResponses,
               path: { "/studies/study-a/export/streams?participant=\($0.participantA.uuidString.lowercased())&stream=gps" }),
        Action("view invitees", needs: .viewInvitees, path: { _ in "/studies/study-a/invitees" }),
        Action("create invitees", needs: .createInvitees, .POST, path: { _ in "/studies/study-a/invitees" }, fields: { _, _ in [("count", "2")] }),
        Action("restrict an invitee", needs: .restrictInvitees, .POST, path: { "/studies/study-a/invitees/\($0.codesA[0])/restrict" }),
        Action("view participants", needs: .viewParticipants, path: { _ in "/studies/study-a/participants" }),
        Action("send a test beep", needs: .sendTestBeep, .POST, path: { "/studies/study-a/participants/\($0.participantA)/test-beep" }),
        Action("view participant dates", needs: .viewParticipants, path: { _ in "/studies/study-a/participant-dates" }),
        Action("view a participant's dates", needs: .viewParticipants, path: { "/studies/study-a/participants/\($0.participantA)/dates" }),
        Action("name participant dates", needs: .editStudies, .POST, path: { _ in "/studies/study-a/participant-dates" },
               fields: { _, who in [("names", "Baseline \(who)")] }),
        Action("view participant variables", needs: .viewParticipants, path: { _ in "/studies/study-a/participant-variables" }),
        Action("view a participant's variables", needs: .viewParticipants, path: { "/studies/study-a/participants/\($0.participantA)/variables" }),
        Action("define participant variables", needs: .editStudies, .POST, path: { _ in "/studies/study-a/participant-variables" },
               fields: { _, who in [("id0", "v_\(who)"), ("type0", "text"), ("label0", "Set by \(who)"), ("from0", "")] }),
        Action("set a participant's variables", needs: .setParticipantVariables, .POST,
               path: { "/studies/study-a/participants/\($0.participantA)/variables" }, fields: { _, who in [("value0", "set by \(who)")] }),
        Action("view the expected streams", needs: .viewStudies, path: { _ in "/studies/study-a/streams" }),
        Action("save the expected streams", needs: .editStudies, .POST, path: { _ in "/studies/study-a/streams" },
               fields: { _, who in [("streams[]", who == "developer" ? "gps" : "gyro")] }),
        Action("view study settings", needs: .viewStudies, path: { _ in "/studies/study-a/settings" }),
        Action("open the new-study form", needs: .editStudies, path: { _ in "/studies/new" }),
        Action("create a study", needs: .editStudies, .POST, path: { _ in "/studies" }, fields: { _, who in
            StudyFormFields.valid(slug: "new-\(who)", name: "New by \(who)") }),
        Action("edit a study", needs: .editStudies, .POST, path: { _ in "/studies/study-a/settings" }, fields: { _, who in
            StudyFormFields.valid(slug: "study-a", name: "Study A edited by \(who)") }),
        Action("add a survey", needs: .editStudies, .POST, path: { _ in "/studies/study-a/surveys" }, fields: { _, who in
            [("name", "Added by \(who)"), ("kind", "esm")] }),
        Action("open the survey editor", needs: .editStudies, path: { "/studies/study-a/surveys/\($0.surveyA)" }),
        Action("open the question builder", needs: .editStudies, path: { "/studies/study-a/surveys/\($0.surveyA)/questions/new?type=slider" }),
        // Before any other save: the form names version 1, the world's only one.
        Action("add a question with the builder", needs: .editStudies, .POST,
               path: { "/studies/study-a/surveys/\($0.surveyA)/questions?type=yes_no" }, fields: { _, who in
            [("version", "1"), ("question_id", "by_\(who.replacingOccurrences(of: "-", with: "_"))"), ("text", "Added by \(who)?")] }),
        Action("save a survey version", needs: .editStudies, .POST, path: { "/studies/study-a/surveys/\($0.surveyA)" }, fields: { _, _ in
            [("document", WebsiteSurveyEditorTests.validDocument)] }),
        Action("list a survey's versions", needs: .editStudies, path: { "/studies/study-a/surveys/\($0.surveyA)/versions" }),
        Action("view a survey version", needs: .editStudies, path: { "/studies/study-a/surveys/\($0.surveyA)/versions/1" }),
        Action("preview a survey in the app's screen", needs: .editStudies, path: { "/studies/study-a/surveys/\($0.surveyA)/preview?version=1" }),
        Action("restore a survey version", needs: .editStudies, .POST,
               path: { "/studies/study-a/surveys/\($0.surveyA)/versions/1/restore" }),
        Action("deactivate a survey", needs: .editStudies, .POST,
               path: { "/studies/study-a/surveys/\($0.surveyA)/active" }, fields: { _, _ in [("active", "false")] }),
        Action("view roles", needs: .manageRoles, path: { _ in "/roles" }),
        Action("create a role", needs: .manageRoles, .POST, path: { _ in "/roles" }, fields: { _, who in
            [("name", "Role by \(who)"), ("permissions[]", "responses.view")] }),
        Action("view researchers", needs: .manageResearchers, path: { _ in "/researchers" }),
        Action("create a researcher", needs: .manageResearchers, .POST, path: { _ in "/researchers" }, fields: { _, who in
            [("email", "\(who)-made@example.org"), ("name", "Made"), ("role", "Researcher"), ("password", "long enough password")] }),
        Action("reset a researcher's password", needs: .manageResearchers, .POST,
               path: { "/researchers/\($0.observerAccount)/password" }),
        // Last, as they take participant A out of the study and delete its response.
        Action("change a participant's status", needs: .changeParticipantStatus, .POST,
               path: { "/studies/study-a/participants/\($0.participantA)/status" }, fields: { _, _ in [("status", "restricted")] }),
        Action("delete a participant's data", needs: .deleteData, .POST,
               path: { "/studies/study-a/participants/\($0.participantA)/delete-data" }, fields: { _, _ in [("confirm", "yes")] }),
        Action("erase a participant", needs: .deleteData, .POST,
               path: { "/studies/study-a/participants/\($0.participantA)/erase" }, fields: { _, _ in [("history", "keep"), ("confirm", "yes")] }),
    ]

    /// The seed's table: a Researcher views responses and views, creates and restricts invitees;
    /// a Developer may do everything; the custom role exactly what it was given.
    static let roles: [(email: String, name: String, permissions: Set<Permission>)] = [
        (WebsiteWorld.researcher, "researcher", [.viewResponses, .viewInvitees, .createInvitees, .restrictInvitees]),
        (WebsiteWorld.developer, "developer", Set(Permission.allCases)),
        (WebsiteWorld.observer, "observer", WebsiteWorld.observerPermissions),
    ]

    @Test("each role is allowed or refused each action exactly as its permissions say", arguments: [0, 1, 2])
    func matrix(roleIndex: Int) async throws {
        let role = Self.roles[roleIndex]
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            WebsiteWorld.installSignalling(app)
            var client = WebClient(app)
            let signIn = try await client.signIn(role.email)
            #expect(signIn.status == .seeOther, "\(role.name) signs in")
            for action in Self.actions {
                // Open a page first so the client holds the current CSRF token.
                _ = try await client.get("/studies")
                let before = try await Fingerprint.take(app.db)
                let response = action.method == .GET
                    ? try await client.get(action.path(world))
                    : try await client.post(action.path(world), action.fields(world, role.name))
                let after = try await Fingerprint.take(app.db)
                if role.permissions.contains(action.needs) {
                    #expect([.ok, .seeOther].contains(response.status), "\(role.name) may \(action): got \(response.status)")
                    if action.method == .POST { #expect(before != after, "\(role.name): \(action) changed something") }
                } else {
                    #expect(response.status == .forbidden, "\(role.name) may not \(action): got \(response.status)")
                    #expect(before == after, "\(role.name): refused \(action) changed nothing")
                }
            }
        }
    }

    @Test("a researcher limited to study A is refused study B's pages and data")
    func otherStudy() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.researcher)
            let list = try await client.get("/studies")
            #expect(list.body.string.contains("Study A"))
            #expect(!list.body.string.contains("Study B"))
            for path in ["/studies/study-b", "/studies/study-b/responses", "/studies/study-b/responses/\(world.responseB)",
                         "/studies/study-b/invitees", "/studies/study-b/export/download?format=csv",
                         "/studies/study-b/export/streams?participant=\(world.participantB.uuidString.lowercased())&stream=gps"] {
                let response = try await client.get(path)
                #expect(response.status == .forbidden, "GET \(path): got \(response.status)")
                #expect(!response.body.string.contains(world.codeB) && !response.body.string.contains("Kitchen in Study B"))
            }
            _ = try await client.get("/studies")
            let before = try await Fingerprint.take(app.db)
            #expect(try await client.post("/studies/study-b/invitees", [("count", "3")]).status == .forbidden)
            #expect(try await client.post("/studies/study-b/invitees/\(world.codeB)/restrict").status == .forbidden)
            #expect(try await client.post("/studies/study-b/participants/\(world.participantB)/test-beep").status == .forbidden)
            #expect(try await client.post("/studies/study-b/participants/\(world.participantB)/status", [("status", "withdrawn")]).status == .forbidden)
            #expect(try await client.post("/studies/study-b/participants/\(world.participantB)/delete-data", [("confirm", "yes")]).status == .forbidden)
            #expect(try await client.post("/studies/study-b/participants/\(world.participantB)/erase", [("history", "delete"), ("confirm", "yes")]).status == .forbidden)
            // Reaching B's code or response through study A's address finds nothing.
            #expect(try await client.post("/studies/study-a/invitees/\(world.codeB)/restrict").status == .notFound)
            #expect(try await client.get("/studies/study-a/responses/\(world.responseB)").status == .notFound)
            #expect(try await Fingerprint.take(app.db) == before)
        }
    }
}

/// A summary of everything the website's actions can change, to show a refused one changed nothing.
struct Fingerprint: Equatable {
    let invitees: Int
    let restricted: Int
    let studies: [String]
    let surveyVersions: Int
    let activeSurveys: Int
    let roles: Int
    let researchers: Int
    let passwordHashes: [String]
    let beeps: Int
    let responses: Int
    let participantStatuses: [String]
    let participantVariables: [String]

    static func take(_ db: any Database) async throws -> Fingerprint {
        Fingerprint(
            invitees: try await Invitee.query(on: db).count(),
            restricted: try await Invitee.query(on: db).filter(\.$status == .restricted).count(),
            studies: try await Study.query(on: db).all().map { "\($0.slug):\($0.name):\($0.participantDateNames):\($0.expectedStreamsJSON ?? ""):\($0.participantVariablesJSON ?? "")" }.sorted(),
            surveyVersions: try await SurveyVersion.query(on: db).count(),
            activeSurveys: try await Survey.query(on: db).filter(\.$active == true).count(),
            roles: try await Role.query(on: db).count(),
            researchers: try await Researcher.query(on: db).count(),
            passwordHashes: try await Researcher.query(on: db).all().map(\.passwordHash).sorted(),
            beeps: try await Beep.query(on: db).count(),
            responses: try await SurveyResponse.query(on: db).count(),
            participantStatuses: try await Participant.query(on: db).all().map(\.status.rawValue).sorted(),
            participantVariables: try await Participant.query(on: db).all().map { $0.variablesJSON ?? "" }.sorted())
    }
}

enum StudyFormFields {
    static func valid(slug: String, name: String) -> [(String, String)] {
        [("slug", slug), ("name", name), ("consentText", "You may leave at any time."), ("invitationOnly", "on"),
         ("scheduling", "server"), ("randomSampling", "on"), ("defaultTimeZone", "Europe/Berlin"), ("minGapMinutes", "45"), ("minBeepsPerDay", "1"),
         ("maxBeepsPerDay", "5"), ("defaultBeepsPerDay", "3"), ("defaultStart", "09:00"), ("defaultEnd", "21:30"),
         ("alertText", "How are you?"), ("sounds", "default, chime")]
    }
}

import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Vapor

/// Two studies, A and B, each with a survey, invitation codes, a participant and a response; and
/// one researcher per role: a Developer, a Researcher limited to study A, and a custom "Observer".
struct WebsiteWorld {
    static let password = "correct horse battery"
    static let developer = "dev@example.org"
    static let researcher = "res@example.org"
    static let observer = "observer@example.org"
    /// The custom role's permissions.
    static let observerPermissions: Set<Permission> = [.viewParticipants, .viewResponses, .viewStudies]

    let studyA: Study
    let studyB: Study
    let surveyA: UUID
    let codesA: [String]
    let codeB: String
    let responseA: UUID
    let responseB: UUID
    let participantA: UUID
    let participantB: UUID
    let observerAccount: UUID

    /// Installs a signaller whose only channel is an outbox file in a fresh temporary folder, so
    /// test beeps from the website have somewhere to go; returns the outbox's path.
    @discardableResult
    static func installSignalling(_ app: Application) -> String {
        let path = TestScratch.file("website-outbox", suffix: ".jsonl").path
        var channels = PushChannelRegistry()
        channels.register(OutboxChannel(path: path), as: "none")
        app.signalling.install(channels: channels)
        return path
    }

    static func make(on db: any Database) async throws -> WebsiteWorld {
        let now = Date()
        let studyA = try await StudyTransfer.create(slug: "study-a", name: "Study A", invitationOnly: true, deviceScheduled: false, on: db, now: now)
        let studyB = try await StudyTransfer.create(slug: "study-b", name: "Study B", invitationOnly: true, deviceScheduled: false, on: db, now: now)
        let document = try SurveyStore.text(of: SampleSurveys.experienceSampling)
        let surveyA = try await SurveyStore.create(
            studyID: studyA.requireID(), kind: .esm, name: "Feelings", position: 0, document: document, on: db, now: now)
        let surveyB = try await SurveyStore.create(
            studyID: studyB.requireID(), kind: .esm, name: "Feelings B", position: 0, document: document, on: db, now: now)
        let codesA = try await InviteeService.create(count: 6, studyID: studyA.requireID(), on: db, now: now).map(\.code)
        let codeB = try await InviteeService.create(count: 1, studyID: studyB.requireID(), on: db, now: now)[0].code
        let (responseA, participantA) = try await respond(study: studyA, survey: surveyA, on: db)
        let (responseB, participantB) = try await respond(study: studyB, survey: surveyB, on: db)

        let developerRole = try await ResearcherAccounts.roleID("Developer", on: db)
        let researcherRole = try await ResearcherAccounts.roleID("Researcher", on: db)
        let observerRole = try await RoleService.create(
            name: "Observer", description: "Looks, never touches.", permissions: observerPermissions.map(\.rawValue), on: db, now: now)
        _ = try await ResearcherAccounts.create(
            email: developer, name: "Dev", roleID: developerRole, password: password, studyIDs: nil, on: db, now: now)
        _ = try await ResearcherAccounts.create(
            email: researcher, name: "Res", roleID: researcherRole, password: password, studyIDs: [studyA.requireID()], on: db, now: now)
        let (observerResearcher, _) = try await ResearcherAccounts.create(
            email: observer, name: "Obs", roleID: observerRole.requireID(), password: password, studyIDs: nil, on: db, now: now)
        return WebsiteWorld(
            studyA: studyA, studyB: studyB, surveyA: try surveyA.requireID(), codesA: codesA, codeB: codeB,
            responseA: responseA, responseB: responseB, participantA: participantA, participantB: participantB,
            observerAccount: try observerResearcher.requireID())
    }

    /// A participant taking part in `study`, registered now, with no answers.
    static func participant(in study: Study, label: String? = nil, on db: any Database) async throws -> Participant {
        try await Participant.fixture(
            studyID: try study.requireID(), label: label, secretHash: UUID().uuidString, registeredLocalDate: "2026-11-20", on: db)
    }

    /// A participant with one answered beep and its response, with a place and country.
    private static func respond(study: Study, survey: Survey, on db: any Database) async throws -> (response: UUID, participant: UUID) {
        let studyID = try study.requireID()
        let participant = try await participant(in: study, on: db)
        let response = SurveyResponse()
        response.$participant.id = try participant.requireID()
        response.$study.id = studyID
        response.$survey.id = try survey.requireID()
        response.surveyVersion = 1
        response.kind = .esm
        response.volunteered = true
        response.idempotencyKey = UUID().uuidString
        response.startedAt = Date()
        response.submittedAt = Date()
        response.receivedAt = Date()
        try await response.save(on: db)
        let context = SurveyResponseContext()
        context.$response.id = try response.requireID()
        context.placeText = "Kitchen in \(study.name)"
        context.country = "GB"
        try await context.save(on: db)
        return (try response.requireID(), try participant.requireID())
    }
}

/// A test application with the website world, and a client signed in as its Developer.
func withSignedInDeveloper(_ body: (Application, WebsiteWorld, inout WebClient) async throws -> Void) async throws {
    try await withTestApp { app, _ in
        let world = try await WebsiteWorld.make(on: app.db)
        var client = WebClient(app)
        _ = try await client.signIn(WebsiteWorld.developer)
        try await body(app, world, &client)
    }
}

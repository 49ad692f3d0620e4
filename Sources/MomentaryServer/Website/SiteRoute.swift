import LeafKit
import MomentaryCore
import Vapor

/// The one typed list of the researcher website's pages and form targets (and the public
/// statistics pages). Handlers are registered from it, redirects and links in Swift are built with
/// `path(_:)`, and templates write `#path("name", parameters…)`, so no page's address is written
/// twice. A route is a path; the method is chosen where the handler is registered.
struct SiteRoute: Sendable, Hashable {
    /// The name templates use: the same as the static property's.
    let name: String
    let template: PathTemplate

    private init(_ name: String, _ template: String) {
        self.name = name
        self.template = PathTemplate(template)
    }

    /// The path with its parameters filled in order (percent-encoded). A wrong count is a
    /// programming error.
    func path(_ values: any CustomStringConvertible...) -> String {
        template.path(values.map(\.description))
    }

    var pathComponents: [PathComponent] { template.pathComponents }
}

extension SiteRoute {
    static let home = SiteRoute("home", "")
    static let signIn = SiteRoute("signIn", "signin")
    static let signOut = SiteRoute("signOut", "signout")
    static let forgotPassword = SiteRoute("forgotPassword", "signin/forgot")
    static let resetPassword = SiteRoute("resetPassword", "signin/reset")
    /// Sign-in's second step, for researchers with two-step sign-in on.
    static let signInCode = SiteRoute("signInCode", "signin/code")

    static let studies = SiteRoute("studies", "studies")
    static let newStudy = SiteRoute("newStudy", "studies/new")
    /// The study's overview, its first page.
    static let study = SiteRoute("study", "studies/{slug}")
    static let studySettings = SiteRoute("studySettings", "studies/{slug}/settings")

    static let studyEnd = SiteRoute("studyEnd", "studies/{slug}/end")
    /// The passive streams the study expects.
    static let expectedStreams = SiteRoute("expectedStreams", "studies/{slug}/streams")
    static let studyArms = SiteRoute("studyArms", "studies/{slug}/arms")
    static let webhooks = SiteRoute("webhooks", "studies/{slug}/webhooks")
    static let alerts = SiteRoute("alerts", "studies/{slug}/alerts")
    static let deleteAlertRule = SiteRoute("deleteAlertRule", "studies/{slug}/alerts/{ruleID}/delete")
    static let deleteWebhook = SiteRoute("deleteWebhook", "studies/{slug}/webhooks/{webhookID}/delete")
    static let archiveStudy = SiteRoute("archiveStudy", "studies/{slug}/archive")
    static let deleteStudy = SiteRoute("deleteStudy", "studies/{slug}/delete")
    static let inviteeQR = SiteRoute("inviteeQR", "studies/{slug}/invitees/{code}/qr.svg")
    static let invitees = SiteRoute("invitees", "studies/{slug}/invitees")
    static let restrictInvitee = SiteRoute("restrictInvitee", "studies/{slug}/invitees/{code}/restrict")

    static let participants = SiteRoute("participants", "studies/{slug}/participants")
    static let participantTestBeep = SiteRoute("participantTestBeep", "studies/{slug}/participants/{participantID}/test-beep")
    static let participantStatus = SiteRoute("participantStatus", "studies/{slug}/participants/{participantID}/status")
    static let participantDeleteData = SiteRoute("participantDeleteData", "studies/{slug}/participants/{participantID}/delete-data")
    static let participantErase = SiteRoute("participantErase", "studies/{slug}/participants/{participantID}/erase")
    /// The names of the dates kept per participant, and one participant's dates.
    static let participantDateNames = SiteRoute("participantDateNames", "studies/{slug}/participant-dates")
    static let participantDates = SiteRoute("participantDates", "studies/{slug}/participants/{participantID}/dates")
    /// The study's participant variables, and one participant's values.
    static let participantVariableDefinitions = SiteRoute("participantVariableDefinitions", "studies/{slug}/participant-variables")
    static let participantVariables = SiteRoute("participantVariables", "studies/{slug}/participants/{participantID}/variables")
    static let participantArm = SiteRoute("participantArm", "studies/{slug}/participants/{participantID}/arm")
    /// The study's messages to participants (write to a filter of them, what was sent, replies),
    /// and one participant's conversation.
    static let messages = SiteRoute("messages", "studies/{slug}/messages")
    static let participantMessages = SiteRoute("participantMessages", "studies/{slug}/participants/{participantID}/messages")

    static let responses = SiteRoute("responses", "studies/{slug}/responses")
    static let response = SiteRoute("response", "studies/{slug}/responses/{responseID}")

    static let export = SiteRoute("export", "studies/{slug}/export")
    static let exportDownload = SiteRoute("exportDownload", "studies/{slug}/export/download")
    static let exportStreams = SiteRoute("exportStreams", "studies/{slug}/export/streams")

    static let surveys = SiteRoute("surveys", "studies/{slug}/surveys")
    static let survey = SiteRoute("survey", "studies/{slug}/surveys/{surveyID}")
    static let surveyActive = SiteRoute("surveyActive", "studies/{slug}/surveys/{surveyID}/active")
    static let surveyPreview = SiteRoute("surveyPreview", "studies/{slug}/surveys/{surveyID}/preview")
    static let surveySchedule = SiteRoute("surveySchedule", "studies/{slug}/surveys/{surveyID}/schedule")
    static let surveyVersions = SiteRoute("surveyVersions", "studies/{slug}/surveys/{surveyID}/versions")
    static let surveyVersion = SiteRoute("surveyVersion", "studies/{slug}/surveys/{surveyID}/versions/{version}")
    static let restoreSurveyVersion = SiteRoute("restoreSurveyVersion", "studies/{slug}/surveys/{surveyID}/versions/{version}/restore")
    static let questions = SiteRoute("questions", "studies/{slug}/surveys/{surveyID}/questions")
    static let newQuestion = SiteRoute("newQuestion", "studies/{slug}/surveys/{surveyID}/questions/new")
    static let question = SiteRoute("question", "studies/{slug}/surveys/{surveyID}/questions/{number}")
    static let moveQuestion = SiteRoute("moveQuestion", "studies/{slug}/surveys/{surveyID}/questions/{number}/move")
    static let deleteQuestion = SiteRoute("deleteQuestion", "studies/{slug}/surveys/{surveyID}/questions/{number}/delete")

    static let publicStatistics = SiteRoute("publicStatistics", "studies/{slug}/public")
    static let publicPhoto = SiteRoute("publicPhoto", "studies/{slug}/public/photos/{photo}")

    /// The participant web app, and its page for joining a study.
    static let participantApp = SiteRoute("participantApp", "app")
    static let join = SiteRoute("join", "join/{slug}")
    /// The manifest a join page links, so the app added to a home screen opens that join page.
    static let joinManifest = SiteRoute("joinManifest", "join/{slug}/manifest.webmanifest")

    /// The guides of `docs/`, public.
    static let docs = SiteRoute("docs", "docs")
    static let doc = SiteRoute("doc", "docs/{name}")

    static let roles = SiteRoute("roles", "roles")
    static let deleteRole = SiteRoute("deleteRole", "roles/{roleID}/delete")
    static let researchers = SiteRoute("researchers", "researchers")
    static let researcher = SiteRoute("researcher", "researchers/{researcherID}")
    static let accessTokens = SiteRoute("accessTokens", "account/tokens")
    static let revokeAccessToken = SiteRoute("revokeAccessToken", "account/tokens/{tokenID}/revoke")
    static let researcherPassword = SiteRoute("researcherPassword", "researchers/{researcherID}/password")
    static let account = SiteRoute("account", "account")
    static let accountPassword = SiteRoute("accountPassword", "account/password")
    static let accountTwoStep = SiteRoute("accountTwoStep", "account/two-step")
    static let accountTwoStepQR = SiteRoute("accountTwoStepQR", "account/two-step/qr.svg")
    static let accountTwoStepOff = SiteRoute("accountTwoStepOff", "account/two-step/off")
    static let audit = SiteRoute("audit", "audit")

    static let all: [SiteRoute] = [
        home, signIn, signOut, signInCode, forgotPassword, resetPassword, studies, newStudy, study, studySettings, studyEnd, expectedStreams, webhooks, deleteWebhook, alerts, deleteAlertRule, archiveStudy, deleteStudy, invitees, inviteeQR, restrictInvitee,
        participants, participantTestBeep, participantStatus, participantDeleteData, participantErase,
        participantDateNames, participantDates, participantVariableDefinitions, participantVariables, participantArm, studyArms, messages, participantMessages,
        responses, response, export, exportDownload, exportStreams,
        surveys, survey, surveyActive, surveyPreview, surveySchedule, surveyVersions, surveyVersion, restoreSurveyVersion,
        questions, newQuestion, question, moveQuestion, deleteQuestion,
        publicStatistics, publicPhoto, participantApp, join, joinManifest, docs, doc, roles, deleteRole, researchers, researcher, researcherPassword, account, accountPassword, accountTwoStep, accountTwoStepQR, accountTwoStepOff, accessTokens, revokeAccessToken, audit,
    ]

    static let named: [String: SiteRoute] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}

extension PathTemplate {
    /// The template as Vapor's route path (`{slug}` becomes the parameter `slug`).
    var pathComponents: [PathComponent] {
        segments.map { segment in
            switch segment {
            case .constant(let text): .constant(text)
            case .parameter(let name): .parameter(name)
            }
        }
    }
}

extension RoutesBuilder {
    @discardableResult
    func get<Response: AsyncResponseEncodable>(
        _ route: SiteRoute, use handler: @escaping @Sendable (Request) async throws -> Response
    ) -> Route {
        get(route.pathComponents, use: handler)
    }

    @discardableResult
    func post<Response: AsyncResponseEncodable>(
        _ route: SiteRoute, use handler: @escaping @Sendable (Request) async throws -> Response
    ) -> Route {
        post(route.pathComponents, use: handler)
    }
}

/// `#path("name", parameters…)` in a template: the address of the site route of that name.
struct SitePathTag: LeafTag {
    func render(_ context: LeafContext) throws -> LeafData {
        guard let name = context.parameters.first?.string, let route = SiteRoute.named[name] else {
            throw LeafError(.unknownError("#path(): the first parameter must name a site route (SiteRoute.all)"))
        }
        let values = try context.parameters.dropFirst().map { value in
            guard let text = value.string else {
                throw LeafError(.unknownError("#path(\"\(name)\"): a parameter has no text value"))
            }
            return text
        }
        guard values.count == route.template.parameterNames.count else {
            throw LeafError(.unknownError(
                "#path(\"\(name)\"): takes \(route.template.parameterNames.count) parameter(s), got \(values.count)"))
        }
        return .string(route.template.path(values))
    }
}

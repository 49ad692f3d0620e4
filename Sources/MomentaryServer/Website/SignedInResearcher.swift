import Fluent
import Foundation
import Vapor

/// The researcher behind a request, with what their role allows and which studies they may see.
struct SignedInResearcher: Sendable {
    let id: UUID
    let name: String
    let email: String
    let roleName: String
    let permissions: Set<Permission>
    /// Nil when the researcher may see every study.
    let studyIDs: Set<UUID>?
    /// Whether two-step sign-in is on for this account.
    var hasSecondFactor = false

    func may(_ permission: Permission) -> Bool { permissions.contains(permission) }

    func canAccess(studyID: UUID) -> Bool { studyIDs?.contains(studyID) ?? true }

    /// Loads an enabled researcher with their role's permissions; nil when unknown or disabled.
    static func load(id: UUID, on db: any Database) async throws -> SignedInResearcher? {
        guard let researcher = try await Researcher.find(id, on: db), !researcher.disabled else { return nil }
        let role = try await researcher.$role.get(on: db)
        let names = try await RolePermission.query(on: db).filter(\.$role.$id == role.requireID()).all(\.$permission)
        let studyIDs: Set<UUID>? = researcher.allStudies
            ? nil
            : Set(try await StudyMembership.query(on: db).filter(\.$researcher.$id == id).all(\.$study.$id))
        return SignedInResearcher(
            id: id, name: researcher.name, email: researcher.email, roleName: role.name,
            permissions: Set(names.compactMap(Permission.init(rawValue:))), studyIDs: studyIDs,
            hasSecondFactor: researcher.totpSecret != nil)
    }
}

struct SignedInResearcherKey: StorageKey {
    typealias Value = SignedInResearcher
}

/// Lets through only requests from a signed-in, enabled researcher; others are sent to sign in.
struct SignedInMiddleware: AsyncMiddleware {
    /// What a researcher may open before setting up a required second factor.
    static let enrolmentPaths: Set<String> = [SiteRoute.accountTwoStep.path(), SiteRoute.accountTwoStepQR.path()]

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        // `hasSession` first: touching `request.session` would store a session for every visitor.
        guard request.hasSession, !WebSession.isExpired(request.session.data, now: request.now),
              let text = request.session.data[WebSession.researcherKey], let id = UUID(uuidString: text),
              let researcher = try await SignedInResearcher.load(id: id, on: request.db)
        else {
            // An expired or orphaned session is deleted, not just ignored.
            if request.hasSession { request.session.destroy() }
            if request.method == .GET { return request.redirect(to: SiteRoute.signIn.path()) }
            throw Abort(.unauthorized, reason: "Please sign in again.")
        }
        request.session.data[WebSession.seenAtKey] = String(request.now.timeIntervalSince1970)
        request.storage[SignedInResearcherKey.self] = researcher
        if request.application.momentaryConfiguration.requireSecondFactor, !researcher.hasSecondFactor,
           !Self.enrolmentPaths.contains(request.url.path) {
            if request.method == .GET { return request.redirect(to: SiteRoute.accountTwoStep.path()) }
            throw Abort(.forbidden, reason: "This server requires two-step sign-in: set it up on your account page first.")
        }
        return try await next.respond(to: request)
    }
}

extension Request {
    /// The signed-in researcher; only routes behind `SignedInMiddleware` may ask.
    var researcher: SignedInResearcher {
        get throws {
            guard let researcher = storage[SignedInResearcherKey.self] else { throw Abort(.unauthorized) }
            return researcher
        }
    }

    /// Refuses with 403 unless the researcher's role grants `permission`.
    func require(_ permission: Permission) throws {
        guard try researcher.may(permission) else {
            throw Abort(.forbidden, reason: "Your role does not allow this (it needs “\(permission.title)”).")
        }
    }

    /// Refuses with 403 unless the role grants `permission` and the researcher may see `study`.
    func require(_ permission: Permission, in study: Study) throws {
        try requireAccess(to: study)
        try require(permission)
    }

    func requireAccess(to study: Study) throws {
        guard try researcher.canAccess(studyID: study.requireID()) else {
            throw Abort(.forbidden, reason: "You are not a member of the study “\(study.name)”.")
        }
    }

    /// The study named by the `slug` path parameter, checked for access and `permission`.
    func study(requiring permission: Permission? = nil) async throws -> Study {
        let slug = try parameters.require("slug")
        guard let study = try await Study.query(on: db).filter(\.$slug == slug).first() else {
            throw Abort(.notFound, reason: "There is no study “\(slug)”.")
        }
        try requireAccess(to: study)
        if let permission { try require(permission) }
        return study
    }

    /// The `:surveyID` survey of the `:slug` study, for researchers who may edit the study; 404
    /// when the study has no such survey.
    func studySurvey() async throws -> (Study, Survey) {
        let study = try await study(requiring: .editStudies)
        guard let id = parameters.get("surveyID", as: UUID.self),
              let survey = try await Survey.query(on: db).filter(\.$id == id).filter(\.$study.$id == study.requireID()).first()
        else { throw Abort(.notFound, reason: "This study has no such survey.") }
        return (study, survey)
    }
}

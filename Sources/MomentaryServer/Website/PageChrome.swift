import Vapor

/// What every signed-in page's layout needs: title, who is signed in, the CSRF token for forms
/// and which menu entries to show. Built from the request so templates never see models.
struct PageChrome: Encodable {
    let title: String
    let researcherName: String?
    let roleName: String?
    let csrf: String
    let canManageRoles: Bool
    let canManageResearchers: Bool
    let study: StudyMenu?
    /// A confirmation after a redirect (`?saved=1`, `?created=1`), shown at the top of the page.
    let notice: String?

    /// The study tabs a researcher's role lets them open.
    struct StudyMenu: Encodable {
        let slug: String
        let name: String
        let settings: Bool
        let surveys: Bool
        let invitees: Bool
        let participants: Bool
        let responses: Bool
        let export: Bool
    }

    /// `notice` replaces the generic confirmation when a page can say more ("Saved as version 3.").
    init(_ request: Request, title: String, study: Study? = nil, notice: String? = nil) {
        let researcher = request.storage[SignedInResearcherKey.self]
        self.title = title
        researcherName = researcher?.name
        roleName = researcher?.roleName
        csrf = WebSession.csrfToken(for: request)
        canManageRoles = researcher?.may(.manageRoles) ?? false
        canManageResearchers = researcher?.may(.manageResearchers) ?? false
        self.notice = if request.query[String.self, at: "saved"] != nil, let notice { notice }
            else if request.query[String.self, at: "created"] == "1" { "Created. Review the settings below, then add a survey." }
            else if request.query[String.self, at: "saved"] != nil { "Saved." }
            else if let deleted = request.query[String.self, at: "deleted"] { "The study “\(deleted.prefix(200))” was deleted." }
            else { nil }
        self.study = study.map { study in
            StudyMenu(
                slug: study.slug, name: study.name,
                settings: researcher?.may(.viewStudies) ?? false, surveys: researcher?.may(.editStudies) ?? false,
                invitees: researcher?.may(.viewInvitees) ?? false, participants: researcher?.may(.viewParticipants) ?? false,
                responses: researcher?.may(.viewResponses) ?? false, export: researcher?.may(.exportResponses) ?? false)
        }
    }
}

extension Request {
    /// Renders a page template with a status (200 unless told).
    func page(_ template: String, _ context: some Encodable, status: HTTPStatus = .ok) async throws -> Response {
        try await view.render(template, context).encodeResponse(status: status, for: self)
    }
}

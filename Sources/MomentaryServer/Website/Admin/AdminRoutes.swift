import Fluent
import Vapor

/// `/roles` and `/researchers`: custom roles with a chosen permission set, and researcher accounts.
struct AdminRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.roles, use: roles)
        routes.post(SiteRoute.roles, use: createRole)
        routes.post(SiteRoute.deleteRole, use: deleteRole)
        routes.get(SiteRoute.researchers, use: researchers)
        routes.post(SiteRoute.researchers, use: createResearcher)
        routes.post(SiteRoute.researcher, use: updateResearcher)
        routes.post(SiteRoute.researcherPassword, use: resetPassword)
    }

    // MARK: Roles

    func roles(request: Request) async throws -> Response {
        try request.require(.manageRoles)
        return try await request.page("roles", try await RolesPage.build(request, problems: []))
    }

    func createRole(request: Request) async throws -> Response {
        try request.require(.manageRoles)
        let form = try request.content.decode(RoleForm.self)
        do {
            try await RoleService.create(name: form.name, description: form.description ?? "", permissions: form.permissions ?? [], on: request.db, now: request.now)
        } catch let refusal as RoleService.Refusal {
            return try await request.page("roles", try await RolesPage.build(request, problems: refusal.problems), status: .unprocessableEntity)
        }
        return request.redirect(to: SiteRoute.roles.path())
    }

    func deleteRole(request: Request) async throws -> Response {
        try request.require(.manageRoles)
        guard let id = request.parameters.get("roleID", as: UUID.self), let role = try await Role.find(id, on: request.db) else {
            throw Abort(.notFound, reason: "There is no such role.")
        }
        try await RoleService.delete(role, on: request.db)
        return request.redirect(to: SiteRoute.roles.path())
    }

    // MARK: Researchers

    func researchers(request: Request) async throws -> Response {
        try request.require(.manageResearchers)
        return try await request.page("researchers", try await ResearchersPage.build(request, problems: [], generatedPassword: nil))
    }

    func createResearcher(request: Request) async throws -> Response {
        try request.require(.manageResearchers)
        let form = try request.content.decode(ResearcherForm.self)
        do {
            let roleID = try await ResearcherAccounts.roleID(form.role, on: request.db)
            let (_, password) = try await ResearcherAccounts.create(
                email: form.email, name: form.name, roleID: roleID, password: form.password.flatMap { $0.isEmpty ? nil : $0 },
                studyIDs: form.studyIDs, on: request.db, now: request.now)
            return try await request.page("researchers", try await ResearchersPage.build(request, problems: [], generatedPassword: password))
        } catch let failure as CommandFailure {
            return try await request.page(
                "researchers", try await ResearchersPage.build(request, problems: [failure.description], generatedPassword: nil),
                status: .unprocessableEntity)
        }
    }

    func updateResearcher(request: Request) async throws -> Response {
        try request.require(.manageResearchers)
        guard let id = request.parameters.get("researcherID", as: UUID.self), let researcher = try await Researcher.find(id, on: request.db) else {
            throw Abort(.notFound, reason: "There is no such researcher.")
        }
        let form = try request.content.decode(ResearcherUpdateForm.self)
        if id == (try request.researcher.id), form.disabled != nil {
            throw Abort(.conflict, reason: "You cannot disable your own account.")
        }
        researcher.$role.id = try await ResearcherAccounts.roleID(form.role, on: request.db)
        researcher.disabled = form.disabled != nil
        try await ResearcherAccounts.setStudies(form.studyIDs, of: researcher, on: request.db)
        return request.redirect(to: SiteRoute.researchers.path())
    }

    /// A new generated password, shown once to the manager to pass on; the researcher's open
    /// sessions end.
    func resetPassword(request: Request) async throws -> Response {
        try request.require(.manageResearchers)
        guard let id = request.parameters.get("researcherID", as: UUID.self), let researcher = try await Researcher.find(id, on: request.db) else {
            throw Abort(.notFound, reason: "There is no such researcher.")
        }
        let managerID = try request.researcher.id
        let kept = id == managerID ? request.session.id : nil
        let password = try await ResearcherAccounts.setPassword(nil, of: researcher, keepingSession: kept, on: request.db)
        request.logger.notice("Password of researcher \(researcher.email) reset by researcher \(managerID)")
        return try await request.page("researchers", try await ResearchersPage.build(
            request, problems: [], generatedPassword: password, passwordLabel: "New password for \(researcher.email)"))
    }
}

struct RoleForm: Content {
    var name: String
    var description: String?
    var permissions: [String]?
}

struct ResearcherForm: Content {
    var email: String
    var name: String
    var role: String
    var password: String?
    /// Empty or absent: the researcher sees every study.
    var studies: [String]?
    var studyIDs: [UUID]? { studies.map { $0.compactMap(UUID.init(uuidString:)) }.flatMap { $0.isEmpty ? nil : $0 } }
}

struct ResearcherUpdateForm: Content {
    var role: String
    var disabled: String?
    var studies: [String]?
    var studyIDs: [UUID]? { studies.map { $0.compactMap(UUID.init(uuidString:)) }.flatMap { $0.isEmpty ? nil : $0 } }
}

import Fluent
import Vapor

struct RolesPage: Encodable {
    let chrome: PageChrome
    let roles: [Row]
    let permissions: [PermissionOption]
    let problems: [String]
    struct Row: Encodable {
        let id: String
        let name: String
        let description: String
        let builtIn: Bool
        let users: Int
        let permissions: [String]
    }
    struct PermissionOption: Encodable {
        let value: String
        let title: String
    }

    static func build(_ request: Request, problems: [String]) async throws -> RolesPage {
        var rows: [Row] = []
        for role in try await Role.query(on: request.db).with(\.$permissions).sort(\.$name).all() {
            let users = try await Researcher.query(on: request.db).filter(\.$role.$id == role.requireID()).count()
            let titles = role.permissions.compactMap { Permission(rawValue: $0.permission)?.title }.sorted()
            rows.append(Row(id: try role.requireID().uuidString, name: role.name, description: role.description, builtIn: role.builtIn, users: users, permissions: titles))
        }
        return RolesPage(
            chrome: PageChrome(request, title: "Roles"), roles: rows,
            permissions: Permission.allCases.map { PermissionOption(value: $0.rawValue, title: $0.title) }, problems: problems)
    }
}

struct ResearchersPage: Encodable {
    let chrome: PageChrome
    let researchers: [Row]
    let roles: [String]
    let studies: [StudyOption]
    let problems: [String]
    let generatedPassword: String?
    /// Whose password `generatedPassword` is, e.g. "New password for ana@example.org".
    let passwordLabel: String?
    struct Row: Encodable {
        let id: String
        let name: String
        let email: String
        let role: String
        let disabled: Bool
        let studies: String
        /// Every study, the researcher's own selected, so saving keeps their limits.
        let studyChoices: [StudyOption]
        let lastSignIn: String
    }
    struct StudyOption: Encodable {
        let id: String
        let name: String
        var selected = false
    }

    static func build(
        _ request: Request, problems: [String], generatedPassword: String?, passwordLabel: String? = nil
    ) async throws -> ResearchersPage {
        let studies = try await Study.query(on: request.db).sort(\.$name).all()
        let studyNames = Dictionary(uniqueKeysWithValues: try studies.map { (try $0.requireID(), $0.name) })
        let memberships = try await StudyMembership.query(on: request.db).all()
        var rows: [Row] = []
        for researcher in try await Researcher.query(on: request.db).with(\.$role).sort(\.$email).all() {
            let ownIDs = Set(memberships.filter { $0.$researcher.id == researcher.id }.map(\.$study.id))
            let own = ownIDs.compactMap { studyNames[$0] }.sorted()
            rows.append(Row(
                id: try researcher.requireID().uuidString, name: researcher.name, email: researcher.email, role: researcher.role.name,
                disabled: researcher.disabled, studies: researcher.allStudies ? "All studies" : own.joined(separator: ", "),
                studyChoices: try studies.map { study in
                    let id = try study.requireID()
                    return StudyOption(id: id.uuidString, name: study.name, selected: !researcher.allStudies && ownIDs.contains(id))
                },
                lastSignIn: WebFormat.dateTime(researcher.lastSignInAt)))
        }
        return ResearchersPage(
            chrome: PageChrome(request, title: "Researchers"), researchers: rows,
            roles: try await Role.query(on: request.db).sort(\.$name).all(\.$name),
            studies: try studies.map { StudyOption(id: try $0.requireID().uuidString, name: $0.name) },
            problems: problems, generatedPassword: generatedPassword,
            passwordLabel: generatedPassword == nil ? nil : passwordLabel ?? "Account created. Its password")
    }
}

import Fluent
import Foundation
import Vapor

/// Custom roles: the rules for creating and deleting one, kept out of the roles page's handlers.
enum RoleService {
    static let maximumNameLength = 60
    static let maximumDescriptionLength = 500

    /// Why a role could not be created, each problem one sentence naming its field.
    struct Refusal: Error {
        let problems: [String]
    }

    /// Creates a role with these permissions. Names are unique without regard to case, because
    /// researchers are given a role by its name compared that way (`ResearcherAccounts.roleID`).
    @discardableResult
    static func create(name: String, description: String, permissions: [String], on db: any Database, now: Date) async throws -> Role {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let description = description.trimmingCharacters(in: .whitespacesAndNewlines)
        var problems: [String] = []
        if name.isEmpty {
            problems.append("Name: give the role a name.")
        } else if name.count > maximumNameLength {
            problems.append("Name: at most \(maximumNameLength) characters.")
        }
        if description.count > maximumDescriptionLength {
            problems.append("Description: at most \(maximumDescriptionLength) characters.")
        }
        let unknown = permissions.filter { Permission(rawValue: $0) == nil }
        if !unknown.isEmpty { problems.append("Permissions: unknown \(unknown.joined(separator: ", ")).") }
        let fieldProblems = problems
        return try await db.transaction { db in
            try await db.lockForWriting()
            var problems = fieldProblems
            let existing = try await Role.query(on: db).all()
            if !name.isEmpty, let same = existing.first(where: { $0.name.lowercased() == name.lowercased() }) {
                problems.append("Name: there is already a role called “\(same.name)”.")
            }
            guard problems.isEmpty else { throw Refusal(problems: problems) }
            let role = Role(name: name, description: description, builtIn: false, createdAt: now)
            try await role.save(on: db)
            for permission in Set(permissions).sorted() {
                try await RolePermission(roleID: role.requireID(), permission: permission).save(on: db)
            }
            return role
        }
    }

    /// Deletes a custom role that no researcher holds.
    static func delete(_ role: Role, on db: any Database) async throws {
        let id = try role.requireID()
        if role.builtIn {
            throw Abort(.conflict, reason: "The built-in role “\(role.name)” cannot be deleted.")
        }
        let users = try await Researcher.query(on: db).filter(\.$role.$id == id).count()
        guard users == 0 else {
            throw Abort(.conflict, reason: "The role “\(role.name)” still has \(users) researcher(s); give them another role first.")
        }
        try await db.transaction { db in
            try await RolePermission.query(on: db).filter(\.$role.$id == id).delete()
            try await role.delete(on: db)
        }
    }
}

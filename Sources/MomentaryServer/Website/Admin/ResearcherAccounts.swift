import Fluent
import Foundation
import MomentaryCore
import Vapor

/// Creating researcher accounts, shared by the command line and the researchers page.
enum ResearcherAccounts {
    static let minimumPasswordLength = 10

    /// The role with this name, compared without regard to case.
    static func roleID(_ name: String, on db: any Database) async throws -> UUID {
        let roles = try await Role.query(on: db).all()
        guard let role = roles.first(where: { $0.name.lowercased() == name.trimmingCharacters(in: .whitespaces).lowercased() }) else {
            let known = roles.map(\.name).sorted().joined(separator: ", ")
            throw CommandFailure.usage("There is no role “\(name)”; roles: \(known).")
        }
        return try role.requireID()
    }

    /// Creates an account; returns it and the password generated when none was given.
    /// `studyIDs` limits the researcher to those studies; nil lets them see every study.
    static func create(
        email: String, name: String, roleID: UUID, password: String?, studyIDs: [UUID]?, on db: any Database, now: Date
    ) async throws -> (Researcher, generatedPassword: String?) {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        guard email.count <= 254, email.split(separator: "@").count == 2, !email.hasPrefix("@"), !email.contains(" ") else {
            throw CommandFailure.usage("Email: “\(email)” is not an email address.")
        }
        if try await Researcher.query(on: db).filter(\.$email == email).first() != nil {
            throw CommandFailure.usage("Email: there is already a researcher with the email \(email).")
        }
        if let password, password.count < minimumPasswordLength {
            throw CommandFailure.usage("Password: must be at least \(minimumPasswordLength) characters long.")
        }
        let generated = password == nil ? SecretCode.generate(length: 16, from: .alphanumeric) : nil
        let hash = try await ResearcherPasswords.hash(password ?? generated!)
        let displayName = name.trimmingCharacters(in: .whitespaces).isEmpty ? email : name.trimmingCharacters(in: .whitespaces)
        let researcher = Researcher(
            email: email, name: displayName, passwordHash: hash, roleID: roleID, allStudies: studyIDs == nil, createdAt: now)
        try await db.transaction { db in
            try await researcher.create(on: db)
            for studyID in studyIDs ?? [] {
                try await StudyMembership(researcherID: researcher.requireID(), studyID: studyID).create(on: db)
            }
        }
        return (researcher, generated)
    }

    /// Limits the researcher to `studyIDs`, or lets them see every study when nil.
    static func setStudies(_ studyIDs: [UUID]?, of researcher: Researcher, on db: any Database) async throws {
        try await db.transaction { db in
            let id = try researcher.requireID()
            researcher.allStudies = studyIDs == nil
            try await researcher.save(on: db)
            try await StudyMembership.query(on: db).filter(\.$researcher.$id == id).delete()
            for studyID in studyIDs ?? [] {
                try await StudyMembership(researcherID: id, studyID: studyID).create(on: db)
            }
        }
    }

    /// Sets a new password (a generated one when `password` is nil, returned so it can be shown
    /// once) and ends the researcher's other sessions, so a leaked password stops working everywhere.
    @discardableResult
    static func setPassword(
        _ password: String?, of researcher: Researcher, keepingSession currentSessionID: SessionID? = nil, on db: any Database
    ) async throws -> String? {
        if let password, password.count < minimumPasswordLength {
            throw CommandFailure.usage("Password: must be at least \(minimumPasswordLength) characters long.")
        }
        let generated = password == nil ? SecretCode.generate(length: 16, from: .alphanumeric) : nil
        researcher.passwordHash = try await ResearcherPasswords.hash(password ?? generated!)
        try await db.transaction { db in
            try await researcher.save(on: db)
            try await WebSession.endSessions(of: researcher.requireID(), except: currentSessionID, on: db)
        }
        return generated
    }
}

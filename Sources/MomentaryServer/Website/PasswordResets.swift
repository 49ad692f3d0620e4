import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// Password reset by email: a link with a secret that works once, for an hour, stored only as
/// its SHA-256. Asking gives the same answer whether or not the email has an account.
enum PasswordResets {
    static let validFor: TimeInterval = 3600
    /// Links mailed to one account in an hour, at most: more asks are answered the same way but
    /// send nothing, so the form cannot be used to flood someone's inbox.
    static let perAccountPerHour = 3

    enum Refusal: Error, Equatable {
        case invalidOrUsed
        case passwordTooShort
    }

    /// A new link's secret for the researcher with this email, or nil when there is none to send
    /// (no such account, a disabled one, or enough links sent this hour).
    static func create(forEmail email: String, on db: any Database, now: Date) async throws -> (researcher: Researcher, secret: String)? {
        guard let researcher = try await Researcher.query(on: db).filter(\.$email == email).first(), !researcher.disabled else { return nil }
        let researcherID = try researcher.requireID()
        let recent = try await db.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("password_resets")
            .where("researcher_id", .equal, researcherID).where("created_at", .greaterThan, now.addingTimeInterval(-3600))
            .first()?.decode(column: "n", as: Int.self) ?? 0
        guard recent < perAccountPerHour else { return nil }
        let secret = SecretCode.generate(length: 43, from: .alphanumeric)
        try await db.sql.insert(into: "password_resets")
            .columns("id", "researcher_id", "token_hash", "created_at", "expires_at")
            .values(SQLBind(UUID()), SQLBind(researcherID), SQLBind(SecretHash.of(secret)), SQLBind(now), SQLBind(now.addingTimeInterval(validFor)))
            .run()
        return (researcher, secret)
    }

    /// Whether the secret is one that would reset a password now.
    static func isValid(_ secret: String, on db: any Database, now: Date) async throws -> Bool {
        try await db.sql.select().column("id").from("password_resets")
            .where("token_hash", .equal, SecretHash.of(secret)).where("used_at", .is, SQLLiteral.null).where("expires_at", .greaterThan, now)
            .first() != nil
    }

    /// Uses the secret (once: the claim is a single statement) to set a new password, ending the
    /// researcher's sessions and every other link they were sent.
    static func redeem(_ secret: String, newPassword: String, on db: any Database, now: Date) async throws -> Researcher {
        guard newPassword.count >= ResearcherAccounts.minimumPasswordLength else { throw Refusal.passwordTooShort }
        let claimed = try await db.sql.raw("""
            UPDATE password_resets SET used_at = \(bind: now)
            WHERE token_hash = \(bind: SecretHash.of(secret)) AND used_at IS NULL AND expires_at > \(bind: now)
            RETURNING researcher_id
            """).first()
        guard let researcherID = try claimed?.decode(column: "researcher_id", as: UUID.self),
              let researcher = try await Researcher.find(researcherID, on: db), !researcher.disabled else { throw Refusal.invalidOrUsed }
        try await ResearcherAccounts.setPassword(newPassword, of: researcher, on: db)
        try await db.sql.update("password_resets").set("used_at", to: now)
            .where("researcher_id", .equal, researcherID).where("used_at", .is, SQLLiteral.null).run()
        return researcher
    }
}

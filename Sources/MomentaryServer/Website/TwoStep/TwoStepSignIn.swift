import Crypto
import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// A researcher's second factor: their TOTP secret and ten single-use recovery codes.
enum TwoStepSignIn {
    static let recoveryCodeCount = 10
    /// 12 characters of a 28-letter alphabet: about 58 bits each.
    static let recoveryCodeLength = 12

    /// A recovery code as stored. SHA-256, not bcrypt as for passwords: the codes are random with
    /// about 58 bits each, so a slow hash adds nothing against guessing from a stolen table, and
    /// checking one code against ten bcrypt hashes would hold a sign-in for seconds.
    static func hash(recoveryCode code: String) -> String {
        let normalized = code.uppercased().filter { !" -".contains($0) }
        return SHA256.hash(data: Data(normalized.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Switches two-step sign-in on with `secret` (whose code of `step` was just typed) and makes
    /// new recovery codes, replacing any old ones. Returns the codes, to be shown once.
    static func enable(_ researcher: Researcher, secret: String, step: Int64, on db: any Database) async throws -> [String] {
        let codes = (0..<recoveryCodeCount).map { _ in
            SecretCode.grouped(SecretCode.generate(length: recoveryCodeLength, from: .unambiguous))
        }
        let id = try researcher.requireID()
        try await db.transaction { db in
            try await RecoveryCode.query(on: db).filter(\.$researcher.$id == id).delete()
            for code in codes { try await RecoveryCode(researcherID: id, codeHash: hash(recoveryCode: code)).create(on: db) }
            researcher.totpSecret = secret
            researcher.totpLastStep = step
            try await researcher.save(on: db)
        }
        return codes
    }

    static func disable(_ researcher: Researcher, on db: any Database) async throws {
        let id = try researcher.requireID()
        try await db.transaction { db in
            try await RecoveryCode.query(on: db).filter(\.$researcher.$id == id).delete()
            researcher.totpSecret = nil
            researcher.totpLastStep = nil
            try await researcher.save(on: db)
        }
    }

    /// Whether `code` is a current TOTP code or an unused recovery code of the researcher, using
    /// it up either way. The update is conditional, so two requests racing with one code cannot
    /// both succeed.
    static func use(_ code: String, of researcher: Researcher, at date: Date, on db: any Database) async throws -> Bool {
        guard let secret = researcher.totpSecret, let key = Base32.decode(secret) else { return false }
        let id = try researcher.requireID()
        let sql = db.sql
        if let step = TOTPGenerator(key: key).matchingStep(code, at: date, after: researcher.totpLastStep) {
            let updated = try await sql.update(Researcher.schema)
                .set("totp_last_step", to: SQLBind(step))
                .where("id", .equal, SQLBind(id))
                .where(SQLGroupExpression(SQLBinaryExpression(
                    SQLBinaryExpression(SQLColumn("totp_last_step"), .is, SQLLiteral.null), .or,
                    SQLBinaryExpression(SQLColumn("totp_last_step"), .lessThan, SQLBind(step)))))
                .returning("id")
                .first()
            if updated != nil { researcher.totpLastStep = step }
            return updated != nil
        }
        let used = try await sql.update(RecoveryCode.schema)
            .set("used_at", to: SQLBind(date))
            .where("researcher_id", .equal, SQLBind(id))
            .where("code_hash", .equal, SQLBind(hash(recoveryCode: code)))
            .where("used_at", .is, SQLLiteral.null)
            .returning("id")
            .first()
        return used != nil
    }

    /// Recovery codes not yet used.
    static func unusedRecoveryCodes(of researcherID: UUID, on db: any Database) async throws -> Int {
        try await RecoveryCode.query(on: db).filter(\.$researcher.$id == researcherID).filter(\.$usedAt == nil).count()
    }
}

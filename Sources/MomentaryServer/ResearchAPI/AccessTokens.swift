import Fluent
import Foundation
import MomentaryCore

/// Personal access tokens: made on the website or with `momentary tokens create`, shown once,
/// stored as a SHA-256 of the secret. A token acts for its researcher and never beyond them: its
/// permissions are the researcher's role's at the moment of use (less the changing ones when
/// read-only), its studies those the researcher may see (narrowed to the ones it names).
enum AccessTokens {
    static let defaultDays = 90
    static let maximumDays = 365
    static let maximumNameLength = 80
    /// Every token starts so, so a leaked one is easy to recognise (and to search for in code).
    static let secretPrefix = "mom_"

    /// What a read-only token keeps of its role.
    static let readPermissions: Set<Permission> = [.viewResponses, .exportResponses, .viewInvitees, .viewParticipants, .viewStudies]

    struct Refusal: Error, CustomStringConvertible, Equatable {
        let description: String
    }

    /// Creates a token; returns it with its secret, which is not kept.
    static func create(
        for researcher: Researcher, name: String, studySlugs: [String], expiresInDays days: Int?, readOnly: Bool,
        triggersBeeps: Bool = false, on db: any Database, now: Date
    ) async throws -> (AccessToken, secret: String) {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= maximumNameLength else {
            throw Refusal(description: "Name: give the token a name of 1 to \(maximumNameLength) characters, so you can tell it apart later.")
        }
        let days = days ?? defaultDays
        guard (1...maximumDays).contains(days) else {
            throw Refusal(description: "Expires in: from 1 to \(maximumDays) days, not \(days).")
        }
        guard let signedIn = try await SignedInResearcher.load(id: researcher.requireID(), on: db) else {
            throw Refusal(description: "The account \(researcher.email) is disabled.")
        }
        if triggersBeeps {
            guard !readOnly else {
                throw Refusal(description: "May beep participants: a read-only token cannot; choose one or the other.")
            }
            guard signedIn.permissions.contains(.sendTestBeep) else {
                throw Refusal(description: "May beep participants: the role “\(signedIn.roleName)” may not send beeps, so a token of \(researcher.email) cannot either.")
            }
        }
        var studyIDs: [UUID]?
        if !studySlugs.isEmpty {
            var ids: [UUID] = []
            for slug in Set(studySlugs).sorted() {
                guard let study = try await Study.query(on: db).filter(\.$slug == slug).first() else {
                    throw Refusal(description: "Studies: there is no study “\(slug)”.")
                }
                guard signedIn.canAccess(studyID: try study.requireID()) else {
                    throw Refusal(description: "Studies: \(researcher.email) is not a member of “\(slug)”, so a token of theirs cannot reach it.")
                }
                ids.append(try study.requireID())
            }
            studyIDs = ids
        }
        let secret = secretPrefix + SecretCode.generate(length: 40, from: .alphanumeric)
        let token = AccessToken()
        token.$researcher.id = try researcher.requireID()
        token.name = name
        token.tokenHash = SecretHash.of(secret)
        token.prefix = String(secret.prefix(secretPrefix.count + 6))
        token.studyIDs = studyIDs
        token.readOnly = readOnly
        token.triggersBeeps = triggersBeeps
        token.createdAt = now
        token.expiresAt = now.addingTimeInterval(Double(days) * 86_400)
        try await token.create(on: db)
        return (token, secret)
    }

    /// The researcher a bearer secret acts for, as narrowed by its token; nil for an unknown,
    /// expired or revoked token or a disabled account.
    static func authenticate(_ secret: String, on db: any Database, now: Date) async throws -> (SignedInResearcher, AccessToken)? {
        guard secret.hasPrefix(secretPrefix), secret.count < 200,
              let token = try await AccessToken.query(on: db).filter(\.$tokenHash == SecretHash.of(secret)).first(),
              token.revokedAt == nil, token.expiresAt > now,
              let researcher = try await SignedInResearcher.load(id: token.$researcher.id, on: db) else { return nil }
        // At most one write a minute per token for its last use, not one per request.
        if token.lastUsedAt.map({ now.timeIntervalSince($0) >= 60 }) ?? true {
            token.lastUsedAt = now
            try await token.save(on: db)
        }
        return (narrowed(researcher, by: token), token)
    }

    static func narrowed(_ researcher: SignedInResearcher, by token: AccessToken) -> SignedInResearcher {
        let permissions = token.readOnly ? researcher.permissions.intersection(readPermissions) : researcher.permissions
        var studyIDs = researcher.studyIDs
        if let limited = token.studyIDs {
            studyIDs = Set(limited).intersection(researcher.studyIDs ?? Set(limited))
        }
        return SignedInResearcher(
            id: researcher.id, name: researcher.name, email: researcher.email, roleName: researcher.roleName,
            permissions: permissions, studyIDs: studyIDs)
    }

    /// Revokes one of the researcher's own tokens; false when they have no such live token.
    static func revoke(_ id: UUID, of researcherID: UUID, on db: any Database, now: Date) async throws -> Bool {
        guard let token = try await AccessToken.query(on: db).filter(\.$id == id).filter(\.$researcher.$id == researcherID).first(),
              token.revokedAt == nil else { return false }
        token.revokedAt = now
        try await token.save(on: db)
        return true
    }
}

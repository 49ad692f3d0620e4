import Fluent
import Foundation
import MomentaryCore
import Vapor

/// What the website keeps in a session: who signed in, and the token every form must send back.
enum WebSession {
    static let cookieName = "momentary-session"
    static let researcherKey = "researcher"
    static let csrfKey = "csrf"
    static let csrfField = "_csrf"
    /// Sessions last a working week; signing out ends them at once.
    static let lifetime: TimeInterval = 7 * 24 * 3600

    /// The session's CSRF token, created on first use.
    static func csrfToken(for request: Request) -> String {
        if let token = request.session.data[csrfKey] { return token }
        let token = SecretCode.generate(length: 32, from: .alphanumeric)
        request.session.data[csrfKey] = token
        return token
    }

    /// Starts a fresh signed-in session: the old session id is dropped so an id planted before
    /// sign-in is worthless afterwards, and the CSRF token is replaced.
    static func signIn(_ researcherID: UUID, on request: Request) async throws {
        if let oldID = request.session.id {
            try await request.application.sessions.driver.deleteSession(oldID, for: request).get()
            request.session.id = nil
        }
        request.session.data = SessionData()
        request.session.data[researcherKey] = researcherID.uuidString
        request.session.data[csrfKey] = SecretCode.generate(length: 32, from: .alphanumeric)
    }

    /// Deletes every stored session signed in as `researcherID` (but `except`). Sessions are few
    /// (one per signed-in browser), so reading them all is cheap and needs no extra column.
    static func endSessions(of researcherID: UUID, except kept: SessionID?, on db: any Database) async throws {
        let id = researcherID.uuidString
        for record in try await SessionRecord.query(on: db).all()
        where record.data[researcherKey] == id && record.key != kept {
            try await record.delete(on: db)
        }
    }
}

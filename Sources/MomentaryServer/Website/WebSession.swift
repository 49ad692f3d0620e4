import Fluent
import Foundation
import MomentaryCore
import Vapor

/// What the website keeps in a session: who signed in, when, and the token every form must send
/// back. A session is stored only from a successful sign-in on: visitors who are not signed in get
/// their sign-in form's token in a cookie instead (double submit), so no row is stored for them.
enum WebSession {
    static let cookieName = "momentary-session"
    /// The anonymous sign-in form's CSRF token (double-submit cookie).
    static let csrfCookieName = "momentary-csrf"
    static let researcherKey = "researcher"
    static let csrfKey = "csrf"
    static let csrfField = "_csrf"
    static let signedInAtKey = "signed_in_at"
    static let seenAtKey = "seen_at"
    /// Sessions last a working week at most; signing out ends them at once.
    static let lifetime: TimeInterval = 7 * 24 * 3600
    /// A session unused for this long ends too.
    static let idleLifetime: TimeInterval = 24 * 3600

    /// The form token of this request: the signed-in session's, or for a visitor the sign-in
    /// cookie's (made here, and set on the response by `CSRFMiddleware`).
    static func csrfToken(for request: Request) -> String {
        if request.hasSession {
            if let token = request.session.data[csrfKey] { return token }
            let token = SecretCode.generate(length: 32, from: .alphanumeric)
            request.session.data[csrfKey] = token
            return token
        }
        if let token = request.cookies[csrfCookieName]?.string, token.count == 32 { return token }
        if let token = request.storage[NewCSRFCookieKey.self] { return token }
        let token = SecretCode.generate(length: 32, from: .alphanumeric)
        request.storage[NewCSRFCookieKey.self] = token
        return token
    }

    /// The token a posted form must match: the session's, else the sign-in cookie's.
    static func expectedCSRFToken(for request: Request) -> String? {
        if request.hasSession, let token = request.session.data[csrfKey] { return token }
        return request.cookies[csrfCookieName]?.string
    }

    /// Whether a stored session's data is past its absolute or idle lifetime (or predates them).
    static func isExpired(_ data: SessionData, now: Date) -> Bool {
        guard let signedIn = data[signedInAtKey].flatMap(Double.init), let seen = data[seenAtKey].flatMap(Double.init) else {
            return true
        }
        return now.timeIntervalSince1970 - signedIn > lifetime || now.timeIntervalSince1970 - seen > idleLifetime
    }

    /// Deletes every stored session that has expired; run at each sign-in, so the table holds only
    /// live sessions (one per signed-in browser).
    static func pruneExpired(on db: any Database, now: Date) async throws {
        for record in try await SessionRecord.query(on: db).all() where isExpired(record.data, now: now) {
            try await record.delete(on: db)
        }
    }

    /// Starts a fresh signed-in session: the old session id is dropped so an id planted before
    /// sign-in is worthless afterwards, and the CSRF token is replaced.
    static func signIn(_ researcherID: UUID, on request: Request) async throws {
        try await startFresh(request)
        request.session.data[researcherKey] = researcherID.uuidString
        request.session.data[csrfKey] = SecretCode.generate(length: 32, from: .alphanumeric)
        let now = String(request.now.timeIntervalSince1970)
        request.session.data[signedInAtKey] = now
        request.session.data[seenAtKey] = now
        try await pruneExpired(on: request.db, now: request.now)
    }

    /// A fresh session holding only a new CSRF token, under a new id.
    private static func startFresh(_ request: Request) async throws {
        if let oldID = request.session.id {
            try await request.application.sessions.driver.deleteSession(oldID, for: request).get()
            request.session.id = nil
        }
        request.session.data = SessionData()
        request.session.data[csrfKey] = SecretCode.generate(length: 32, from: .alphanumeric)
    }

    /// After a right password of a researcher with two-step sign-in: a session that remembers who
    /// is half signed in, for the code page only (it has no `researcherKey`, so no other page opens).
    static func awaitSecondStep(_ researcherID: UUID, email: String, on request: Request, now: Date) async throws {
        try await startFresh(request)
        request.session.data[pendingResearcherKey] = researcherID.uuidString
        request.session.data[pendingEmailKey] = email
        request.session.data[pendingSinceKey] = String(now.timeIntervalSince1970)
        request.session.data[pendingFailuresKey] = "0"
        // So pruning at others' sign-ins leaves it alone until it is a day idle.
        request.session.data[signedInAtKey] = String(now.timeIntervalSince1970)
        request.session.data[seenAtKey] = String(now.timeIntervalSince1970)
    }

    /// The half-signed-in researcher of this session, unless the code was not given in time.
    static func pendingResearcher(of request: Request, now: Date) -> (id: UUID, email: String)? {
        guard request.hasSession, let id = request.session.data[pendingResearcherKey].flatMap(UUID.init(uuidString:)),
              let email = request.session.data[pendingEmailKey],
              let since = request.session.data[pendingSinceKey].flatMap(Double.init),
              now.timeIntervalSince1970 - since < secondStepLifetime
        else { return nil }
        return (id, email)
    }

    static let pendingResearcherKey = "pending_researcher"
    static let pendingEmailKey = "pending_email"
    static let pendingSinceKey = "pending_since"
    static let pendingFailuresKey = "pending_failures"
    /// The code must follow the password within five minutes.
    static let secondStepLifetime: TimeInterval = 5 * 60

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

/// A sign-in form token made during this request, for `CSRFMiddleware` to set as a cookie.
struct NewCSRFCookieKey: StorageKey {
    typealias Value = String
}

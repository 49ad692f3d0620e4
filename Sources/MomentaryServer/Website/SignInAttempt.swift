import Foundation
import Vapor

/// What the password step and the code step of sign-in share: the throttle's decision before an
/// attempt is checked, and a failure counted, logged and audited after. Wrong codes count as
/// wrong passwords do, against the same account and address.
enum SignInAttempt {
    /// Waits out the account's back-off, if any; returns the seconds to refuse for when the
    /// address is in back-off (recorded in the audit log as `action`), else nil.
    static func waitTurn(email: String, action: String, on request: Request) async throws -> Int? {
        let address = ClientAddress.of(request)
        let clock = request.application.timeSource
        let startedAt = clock.now()
        switch try await SignInThrottle.decide(email: email, address: address, now: startedAt, on: request.db) {
        case .refuse(let retryAfter):
            let seconds = max(1, Int((retryAfter - 0.001).rounded(.up)))
            request.logger.warning(
                "Sign-in refused without checking it: too many failed sign-ins from this address",
                metadata: ["email": .string(email), "address": .string(address), "retry_after": .stringConvertible(seconds)])
            try await AuditLog.record(action, researcher: (nil, email), request: request, outcome: "429 throttled")
            return seconds
        case .delay(let delay):
            request.logger.notice(
                "Sign-in slowed: the account has failed sign-ins",
                metadata: ["email": .string(email), "address": .string(address), "delay": .stringConvertible(delay)])
            try await clock.sleep(until: startedAt.addingTimeInterval(delay))
        case .proceed:
            break
        }
        return nil
    }

    static func recordFailure(email: String, researcherID: UUID?, action: String, on request: Request) async throws {
        let address = ClientAddress.of(request)
        let backOffs = try await SignInThrottle.recordFailure(
            email: email, address: address, now: request.application.timeSource.now(), on: request.db)
        for (key, until) in backOffs.sorted(by: { $0.key < $1.key }) {
            request.logger.notice(
                "Failed sign-in: back-off for \(key) until \(until)",
                metadata: ["email": .string(email), "address": .string(address)])
        }
        try await AuditLog.record(action, researcher: (researcherID, email), request: request, outcome: "401 failed")
    }

    /// "Too many failed sign-ins. Try again in 40 seconds." with its `Retry-After`.
    static func refusal(_ seconds: Int) -> (message: String, header: String) {
        ("Too many failed sign-ins. Try again in \(duration(seconds)).", String(seconds))
    }

    /// "1 second", "40 seconds", "3 minutes": how long to wait, in words.
    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        let minutes = (seconds + 59) / 60
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }

    /// Signs the researcher in for good: their throttle keys start afresh and a new session begins.
    static func complete(_ researcher: Researcher, action: String, on request: Request) async throws -> Response {
        try await SignInThrottle.recordSuccess(email: researcher.email, address: ClientAddress.of(request), on: request.db)
        try await AuditLog.record(action, researcher: (researcher.id, researcher.email), request: request, outcome: "303")
        researcher.lastSignInAt = request.application.timeSource.now()
        try await researcher.save(on: request.db)
        try await WebSession.signIn(researcher.requireID(), on: request)
        return request.redirect(to: SiteRoute.studies.path(), redirectType: .normal)
    }
}

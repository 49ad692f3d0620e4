import Fluent
import Foundation
import SQLKit

/// Slows password guessing on the sign-in form without locking out the account's owner. State is
/// kept in `sign_in_failures`, so it holds across restarts and is shared by every server process.
///
/// The rule. Two keys count consecutive failed sign-ins: the account (`account:<email>`, from any
/// address) and the address (`address:<client address>`, for any email, which catches spraying one
/// password over many emails). A failure more than `forgetAfter` (24 h) after the key's previous
/// one starts its count again. From the 3rd failure on, the key is in back-off for 1 s after that
/// failure, doubling with each further failure up to 15 min. While in back-off:
/// - an address is refused: 429 with `Retry-After`, and the password is not verified, so trying
///   again sooner gains a guesser nothing;
/// - an account is only slowed: the answer waits the back-off left, at most 2 s, then the password
///   is verified as usual, so guesses from elsewhere never keep the real user out.
/// A refused attempt is not a failure. A success clears the account's key and that address's key.
///
/// This lives in the database, not in memory as `RequestRateLimiter` does for registrations,
/// because a guesser must not win fresh tries by a restart or by reaching another process.
enum SignInThrottle {
    /// Failures a key may have before its back-off starts.
    static let freeFailures = 2
    static let firstBackOff: TimeInterval = 1
    static let maximumBackOff: TimeInterval = 15 * 60
    static let forgetAfter: TimeInterval = 24 * 60 * 60
    /// The longest an account's back-off holds up an answer.
    static let maximumAccountDelay: TimeInterval = 2

    enum Decision: Equatable {
        case proceed
        /// The account is in back-off: answer after waiting this long.
        case delay(TimeInterval)
        /// The address is in back-off: refuse, without verifying the password, for this long.
        case refuse(retryAfter: TimeInterval)
    }

    /// Longer input than any email is cut, so an oversized form cannot make an unindexable key.
    static func accountKey(_ email: String) -> String { "account:" + email.lowercased().prefix(254) }
    static func addressKey(_ address: String) -> String { "address:" + address.prefix(100) }

    /// The back-off after a key's `failures`-th consecutive failure; nil before it starts.
    static func backOff(afterFailures failures: Int) -> TimeInterval? {
        guard failures > freeFailures else { return nil }
        let doublings = min(failures - freeFailures - 1, 30)
        return min(firstBackOff * Double(1 << doublings), maximumBackOff)
    }

    /// What to do with an attempt before its password is looked at.
    static func decide(email: String, address: String, now: Date, on database: any Database) async throws -> Decision {
        let (account, addressKey) = (accountKey(email), addressKey(address))
        let rows = try await SignInFailure.query(on: database).filter(\.$key ~~ [account, addressKey]).all()
        func left(_ key: String) -> TimeInterval {
            guard let until = rows.first(where: { $0.key == key })?.blockedUntil else { return 0 }
            // Stored times may come back a hair off (SQLite keeps a double of seconds since 1970).
            let left = until.timeIntervalSince(now)
            return left > 0.001 ? left : 0
        }
        if left(addressKey) > 0 { return .refuse(retryAfter: left(addressKey)) }
        if left(account) > 0 { return .delay(min(left(account), maximumAccountDelay)) }
        return .proceed
    }

    /// Counts a failure against the account and the address (atomically, so failures at the same
    /// moment all count) and forgets keys idle for `forgetAfter`. Returns the back-offs it started:
    /// key to the time it ends.
    @discardableResult
    static func recordFailure(email: String, address: String, now: Date, on database: any Database) async throws -> [String: Date] {
        let sql = database.sql
        let table = SignInFailure.schema
        let cutoff = now.addingTimeInterval(-forgetAfter)
        var started = [String: Date]()
        for key in [accountKey(email), addressKey(address)] {
            let failures = try await sql.insert(into: table)
                .columns("id", "key", "failures", "last_failure_at", "blocked_until")
                .values(SQLBind(UUID()), SQLBind(key), SQLBind(1), SQLBind(now), SQLLiteral.null)
                .onConflict(with: "key") {
                    $0.set("failures", to: SQLQueryString(
                        "CASE WHEN \(ident: table).last_failure_at < \(bind: cutoff) THEN 1 ELSE \(ident: table).failures + 1 END"))
                        .set(excludedValueOf: "last_failure_at")
                }
                .returning("failures")
                .first(decodingColumn: "failures", as: Int.self) ?? 1
            let until = backOff(afterFailures: failures).map { now.addingTimeInterval($0) }
            try await sql.update(table).set("blocked_until", to: until).where("key", .equal, key).run()
            if let until { started[key] = until }
        }
        try await sql.delete(from: table).where("last_failure_at", .lessThan, cutoff).run()
        return started
    }

    /// A successful sign-in: the account and the address it came from start afresh.
    static func recordSuccess(email: String, address: String, on database: any Database) async throws {
        try await SignInFailure.query(on: database).filter(\.$key ~~ [accountKey(email), addressKey(address)]).delete()
    }
}

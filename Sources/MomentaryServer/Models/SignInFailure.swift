import Fluent
import Foundation

/// The failed sign-ins of one throttle key (see `SignInThrottle`).
final class SignInFailure: Model, @unchecked Sendable {
    static let schema = "sign_in_failures"

    @ID(key: .id) var id: UUID?
    /// `account:<lowercased email>` or `address:<client address>`.
    @Field(key: "key") var key: String
    /// Consecutive failures, none more than `SignInThrottle.forgetAfter` after the one before.
    @Field(key: "failures") var failures: Int
    @Field(key: "last_failure_at") var lastFailureAt: Date
    /// Until when the key is in back-off; nil before the first back-off.
    @OptionalField(key: "blocked_until") var blockedUntil: Date?

    init() {}
}

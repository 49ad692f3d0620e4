import Foundation

/// How often anyone may register or try an invitation code, so a script cannot fill a study with
/// fake participants or guess codes. Per client address: enough registrations for a class
/// enrolling together behind one network, and invitation checks plenty for mistyping a code but
/// far too few to guess one. Per study, from all addresses together
/// (`MOMENTARY_STUDY_REGISTRATION_LIMIT`), so many addresses cannot fill a study either.
struct RegistrationLimits: Sendable {
    static let registrationsPerAddress = 100
    static let invitationChecksPerAddress = 30
    static let window: TimeInterval = 10 * 60

    private let byAddress = RequestRateLimiter(limit: registrationsPerAddress, window: window)
    private let byStudy: RequestRateLimiter
    private let invitationChecks = RequestRateLimiter(limit: invitationChecksPerAddress, window: window)

    init(registrationsPerStudy: Int) {
        byStudy = RequestRateLimiter(limit: registrationsPerStudy, window: Self.window)
    }

    /// Counts a registration attempt from `address`; 429 past the limit.
    func admitRegistration(from address: String, now: Date) async throws {
        guard await byAddress.allow(address, now: now) else { throw Self.tooMany("api_error.registrations_network") }
    }

    /// 429 when the study has taken its registrations for now. Only registrations that succeed
    /// count (`countRegistration`), so refused requests cannot use up a study's budget.
    func checkStudy(_ slug: String, now: Date) async throws {
        guard await !byStudy.isLimited(slug, now: now) else { throw Self.tooMany("api_error.registrations_study") }
    }

    func countRegistration(in slug: String, now: Date) async {
        _ = await byStudy.allow(slug, now: now)
    }

    /// Counts an invitation check from `address`; 429 past the limit.
    func admitInvitationCheck(from address: String, now: Date) async throws {
        guard await invitationChecks.allow(address, now: now) else { throw Self.tooMany("api_error.invitation_checks") }
    }

    private static func tooMany(_ key: String) -> APIError {
        APIError(.tooManyRequests, words: key).retryingAfter(seconds: Int(window))
    }
}

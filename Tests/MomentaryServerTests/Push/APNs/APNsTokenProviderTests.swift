import Foundation
import MomentaryServer
import MomentaryTestServers
import Testing

@Suite("APNs provider token lifetime")
struct APNsTokenProviderTests {
    /// Where the test clocks start: any fixed instant does.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A provider for a fresh key, on the test's clock, configured from a written `.p8` file.
    private func makeProvider(
        key: APNsTestKey, clock: ManualTimeSource, lifetime: TimeInterval? = nil
    ) throws -> APNsTokenProvider {
        let directory = try APNsHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = try #require(try APNsConfiguration.load(environment: APNsHarness.writeKey(key, in: directory)))
        if let lifetime { configuration.tokenLifetime = lifetime }
        return APNsTokenProvider(configuration: configuration, now: { clock.now() })
    }

    @Test("the token is an ES256 JWT with kid, iss and a whole-second iat from the injected clock")
    func tokenContents() async throws {
        let key = APNsTestKey()
        let clock = ManualTimeSource(now: Date(timeIntervalSince1970: 1_800_000_000.75))
        let provider = try makeProvider(key: key, clock: clock)
        let token = try await provider.token()
        let claims = try LocalAPNsJWT.verify(token.jwt, with: key.publicKey)
        #expect(claims.algorithm == "ES256")
        #expect(claims.keyID == key.keyID)
        #expect(claims.issuer == key.teamID)
        #expect(claims.issuedAt == 1_800_000_000)
        #expect(token.issuedAt == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test("the token is reused for 40 minutes by default, then signed anew")
    func reuseForLifetime() async throws {
        let clock = ManualTimeSource(now: Self.start)
        let provider = try makeProvider(key: APNsTestKey(), clock: clock)
        let first = try await provider.token()
        clock.advance(by: 39 * 60)
        #expect(try await provider.token() == first)
        clock.advance(by: 2 * 60)
        let second = try await provider.token()
        #expect(second != first)
        #expect(second.issuedAt == clock.now())
        #expect(await provider.signedCount == 2)
    }

    @Test("a configured lifetime is kept within APNs' 20–60 minute window")
    func lifetimeClamped() async throws {
        let shortClock = ManualTimeSource(now: Self.start)
        let short = try makeProvider(key: APNsTestKey(), clock: shortClock, lifetime: 60)
        let first = try await short.token()
        shortClock.advance(by: 19 * 60)
        #expect(try await short.token() == first)

        let longClock = ManualTimeSource(now: Self.start)
        let long = try makeProvider(key: APNsTestKey(), clock: longClock, lifetime: 3 * 3600)
        let old = try await long.token()
        longClock.advance(by: 61 * 60)
        #expect(try await long.token() != old)
    }

    @Test("invalidating a token forces one new signing, however often it is invalidated")
    func invalidateOnce() async throws {
        let provider = try makeProvider(key: APNsTestKey(), clock: ManualTimeSource(now: Self.start))
        let first = try await provider.token()
        await provider.invalidate(first)
        let second = try await provider.token()
        #expect(second != first)
        await provider.invalidate(first)
        #expect(try await provider.token() == second)
        #expect(await provider.signedCount == 2)
    }

    @Test("concurrent first requests share one signing")
    func concurrentSigning() async throws {
        let provider = try makeProvider(key: APNsTestKey(), clock: ManualTimeSource(now: Self.start))
        let tokens = try await withThrowingTaskGroup(of: APNsProviderToken.self, returning: Set<APNsProviderToken>.self) { group in
            for _ in 0..<20 { group.addTask { try await provider.token() } }
            return try await group.reduce(into: []) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
        #expect(await provider.signedCount == 1)
    }
}

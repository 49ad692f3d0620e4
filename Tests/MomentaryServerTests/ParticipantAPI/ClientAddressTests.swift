import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Per-address limits and trusted proxies")
struct ClientAddressTests {
    static func register(_ server: RunningServer, forwardedFor: String?, seed: UInt64) async throws -> (status: Int, body: String) {
        let answer = try await APIFixture.postRegistration(
            to: server, seed: seed, headers: forwardedFor.map { ["X-Forwarded-For": $0] } ?? [:])
        return (answer.status, String(decoding: answer.body, as: UTF8.self))
    }

    @Test("registrations are limited per client; behind a trusted proxy each forwarded client has its own budget")
    func registrationsBehindAProxy() async throws {
        try await withRunningServer(adjusting: { $0.trustedProxies = ["127.0.0.1"] }) { server in
            try await APIFixture.seedDemo(on: server.db)
            let limit = RegistrationLimits.registrationsPerAddress
            for seed in 0..<limit {
                #expect(try await Self.register(server, forwardedFor: "203.0.113.7", seed: UInt64(seed)).status == 201)
            }
            let refused = try await Self.register(server, forwardedFor: "203.0.113.7", seed: 999)
            #expect(refused.status == 429 && refused.body.contains("too_many_requests"))
            // Only the entry the proxy added counts: a client cannot pose as another by sending its own.
            #expect(try await Self.register(server, forwardedFor: "198.51.100.2, 203.0.113.7", seed: 1000).status == 429)
            #expect(try await Self.register(server, forwardedFor: "198.51.100.2", seed: 1001).status == 201)
            let participants = try await Participant.query(on: server.db).count()
            #expect(participants == limit + 1, "a refused registration stores nothing")
        }
    }

    @Test("a study takes at most MOMENTARY_STUDY_REGISTRATION_LIMIT registrations in ten minutes from all addresses together; refusals use none of it")
    func registrationsPerStudy() async throws {
        try await withRunningServer(adjusting: { $0.trustedProxies = ["127.0.0.1"]; $0.studyRegistrationLimit = 3 }) { server in
            try await APIFixture.seedDemo(on: server.db)
            let refusedConsent = #"{"study":"demo","consent":false,"timezone":"Europe/London","settings":{"beeps_per_day":2,"start":"08:00","end":"22:00"},"push":{"channel":"none"},"device":{"model":"m","os":"o","app_version":"1"}}"#
            for index in 0..<5 {
                let (status, _) = try await RawHTTP.post(server.baseURL, "/api/v1/participants", json: refusedConsent, headers: ["X-Forwarded-For": "198.51.100.\(index)"])
                #expect(status == 422)
            }
            for index in 0..<3 {
                #expect(try await Self.register(server, forwardedFor: "203.0.113.\(index)", seed: UInt64(index)).status == 201)
            }
            let refused = try await Self.register(server, forwardedFor: "203.0.113.99", seed: 99)
            #expect(refused.status == 429 && refused.body.contains("This study has taken"))
            #expect(try await Participant.query(on: server.db).count() == 3)
        }
    }

    @Test("without trusted proxies, X-Forwarded-For changes nothing")
    func untrustedForwardingIsIgnored() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            for seed in 0..<RegistrationLimits.registrationsPerAddress {
                _ = try await Self.register(server, forwardedFor: "192.0.2.\(seed % 250)", seed: UInt64(seed))
            }
            #expect(try await Self.register(server, forwardedFor: "192.0.2.251", seed: 999).status == 429,
                    "every request came from 127.0.0.1, whatever it claimed")
        }
    }

    @Test("MOMENTARY_TRUSTED_PROXIES lists IP addresses")
    func configuration() throws {
        let directory = TestScratch.file("momentary-proxies").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let loaded = try Configuration.load(environment: ["MOMENTARY_TRUSTED_PROXIES": "10.0.0.1, ::1"], dataDirectoryOverride: directory)
        #expect(loaded.trustedProxies == ["10.0.0.1", "::1"])
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["MOMENTARY_TRUSTED_PROXIES": "10.0.0.1,proxy.example"], dataDirectoryOverride: directory)
        }
    }
}

import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing

/// Studies, registrations and beeps for participant-API tests.
enum APIFixture {
    /// The demo study (open, Mappiness-style surveys), seeded as `serve --demo` does.
    static func seedDemo(on db: any Database) async throws {
        try await DemoSeeder.seedIfNeeded(on: db) { _ in }
    }

    /// An invitation-only copy of the demo study with `count` fresh codes.
    static func invitationOnlyStudy(on db: any Database, codes: [String]) async throws -> Study {
        let study = Study(slug: "closed", name: "Closed study", now: Date())
        study.invitationOnly = true
        try await study.save(on: db)
        let studyID = try study.requireID()
        try await SurveyStore.create(
            studyID: studyID, kind: .esm, name: "ESM", position: 0,
            document: try SurveyStore.text(of: SampleSurveys.experienceSampling), on: db, now: Date())
        for code in codes {
            try await Invitee(studyID: studyID, code: code, now: Date()).save(on: db)
        }
        return study
    }

    static func registration(
        study: String = "demo", invitation: String? = nil, settings: SignallingSettings = .standard, seed: UInt64 = 1
    ) -> RegistrationRequest {
        var generator = Xoshiro256StarStar(seed: seed)
        let answers = study == "demo" ? SampleSurveys.registration.randomAnswers(using: &generator) : []
        return RegistrationRequest(
            study: study, invitationCode: invitation, consent: true, timezone: "Europe/London",
            settings: settings, push: .none, registrationAnswers: answers,
            device: DeviceInfo(model: "Test phone", os: "TestOS 1", appVersion: "1.0"))
    }

    /// Registers through the API and returns an authenticated client.
    static func register(on server: RunningServer, _ request: RegistrationRequest = registration()) async throws -> (MomentaryAPIClient, RegistrationResponse) {
        try await register(at: server.baseURL, request)
    }

    /// `register(on:)` for a server a test runs as its own process.
    static func register(at base: URL, _ request: RegistrationRequest = registration()) async throws -> (MomentaryAPIClient, RegistrationResponse) {
        let response = try await MomentaryAPIClient(baseURL: base).register(request)
        let credentials = ParticipantCredentials(participantID: response.participantID, secret: response.secret)
        return (MomentaryAPIClient(baseURL: base, credentials: credentials), response)
    }

    /// Posts `registration(seed:)` as raw HTTP, for tests that read a refusal or send headers of their own.
    static func postRegistration(
        to server: RunningServer, seed: UInt64, headers: [String: String] = [:]
    ) async throws -> (status: Int, body: Data, headers: [String: String]) {
        let json = ["Content-Type": "application/json"]
        return try await RawHTTP.fetch(
            server.baseURL, "/api/v1/participants", method: "POST", body: try WireCoding.makeEncoder().encode(registration(seed: seed)),
            headers: json.merging(headers) { $1 }, timeout: 120)
    }

    /// A beep delivered to the participant `minutesAgo` minutes ago, as the dispatcher leaves it.
    @discardableResult
    static func deliveredBeep(
        for participantID: UUID, minutesAgo: Double, status: Beep.Status = .sent, on db: any Database
    ) async throws -> Beep {
        guard let participant = try await Participant.find(participantID, on: db) else {
            throw FixtureError("no participant \(participantID)")
        }
        let sentAt = Date().addingTimeInterval(-minutesAgo * 60)
        let beep = Beep()
        beep.$participant.id = participantID
        beep.$study.id = participant.$study.id
        beep.origin = .random
        beep.localDate = "2026-01-01"
        beep.sequence = Int.random(in: 0..<1_000_000)
        beep.scheduledAt = sentAt
        beep.sentAt = sentAt
        beep.status = status
        beep.createdAt = sentAt
        try await beep.save(on: db)
        return beep
    }

    /// A valid answer set for the demo ESM survey.
    static func submission(key: String = UUID().uuidString, beepID: UUID? = nil, seed: UInt64 = 7) -> ResponseSubmission {
        var generator = Xoshiro256StarStar(seed: seed)
        let started = Date().addingTimeInterval(-30)
        return ResponseSubmission(
            idempotencyKey: key, beepID: beepID, surveyVersion: 1, startedAt: started, submittedAt: started.addingTimeInterval(25),
            answers: SampleSurveys.experienceSampling.randomAnswers(using: &generator, skipProbability: 0),
            context: MomentaryCore.ResponseContext(
                location: LocationFix(latitude: 51.5, longitude: -0.12, horizontalAccuracy: 30, timestamp: started),
                sound: SoundLevel(averageDB: 48, peakDB: 63), battery: 0.8, connection: .wifi, steps: 120, impetus: .notification))
    }

    struct FixtureError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Participant API: registration")
struct RegistrationTests {
    @Test("an open study registers a participant with a 20-character secret stored only as a hash")
    func registerOpenStudy() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            #expect(registration.secret.count == 20)
            #expect(registration.study == StudySummary(slug: "demo", name: "Momentary demo", scheduling: .server))
            #expect(registration.schedule == nil)
            let participant = try #require(try await Participant.find(registration.participantID, on: server.db))
            #expect(participant.secretHash != registration.secret)
            #expect(participant.secretHash == SecretHash.of(registration.secret))
            #expect(participant.timeZone == "Europe/London")
            #expect(participant.registeredLocalDate.count == 10)
            let registrationResponses = try await SurveyResponse.query(on: server.db).filter(\.$kind == .registration).count()
            #expect(registrationResponses == 1)
            let status = try await client.status()
            #expect(status.responses == 0)
            #expect(status.responseRate == nil)
            #expect(status.typicalResponseSeconds == nil)
        }
    }

    @Test("invitation codes: required, single use, refused when restricted or unknown; a refusal stores nothing")
    func invitationOnly() async throws {
        try await withRunningServer { server in
            let study = try await APIFixture.invitationOnlyStudy(on: server.db, codes: ["BCD23", "FGH45", "JKM67"])
            let restricted = try #require(try await Invitee.query(on: server.db).filter(\.$code == "JKM67").first())
            restricted.status = .restricted
            try await restricted.save(on: server.db)

            func refusal(_ code: String?) async -> String? {
                do {
                    _ = try await APIFixture.register(on: server, APIFixture.registration(study: "closed", invitation: code))
                    return nil
                } catch {
                    return (error as? MomentaryClientError)?.serverCode
                }
            }
            #expect(await refusal(nil) == "invitation_required")
            #expect(await refusal("ZZZ99") == "invitation_invalid")
            #expect(await refusal("JKM67") == "invitation_invalid")
            #expect(try await Participant.query(on: server.db).count() == 0)

            let (_, registration) = try await APIFixture.register(on: server, APIFixture.registration(study: "closed", invitation: "bcd23"))
            let participant = try #require(try await Participant.find(registration.participantID, on: server.db))
            let invitee = try #require(try await participant.$invitee.get(on: server.db))
            #expect(invitee.code == "BCD23")
            #expect(invitee.status == .participating)
            #expect(await refusal("BCD23") == "invitation_invalid", "a used code cannot be used again")
            #expect(try await Participant.query(on: server.db).filter(\.$study.$id == study.requireID()).count() == 1)
        }
    }

    @Test("bad registrations are refused with the right status and store nothing", arguments: [
        ("no consent", #"{"study":"demo","consent":false,"timezone":"Europe/London","settings":{"beeps_per_day":2,"start":"08:00","end":"22:00"},"push":{"channel":"none"},"device":{"model":"m","os":"o","app_version":"1"}}"#, 422, "consent_required"),
        ("unknown study", #"{"study":"nope","consent":true,"timezone":"Europe/London","settings":{"beeps_per_day":2,"start":"08:00","end":"22:00"},"push":{"channel":"none"},"device":{"model":"m","os":"o","app_version":"1"}}"#, 404, "study_not_found"),
        ("missing settings", #"{"study":"demo","consent":true,"timezone":"Europe/London","push":{"channel":"none"},"device":{"model":"m","os":"o","app_version":"1"}}"#, 400, "bad_request"),
        ("wrong type", #"{"study":"demo","consent":"yes","timezone":"Europe/London","settings":{"beeps_per_day":2,"start":"08:00","end":"22:00"},"push":{"channel":"none"},"device":{"model":"m","os":"o","app_version":"1"}}"#, 400, "bad_request"),
        ("too many beeps", #"{"study":"demo","consent":true,"timezone":"Europe/London","settings":{"beeps_per_day":9,"start":"08:00","end":"22:00"},"push":{"channel":"none"},"device":{"model":"m","os":"o","app_version":"1"}}"#, 422, "validation_failed"),
        ("hours too short", #"{"study":"demo","consent":true,"timezone":"Europe/London","settings":{"beeps_per_day":5,"start":"08:00","end":"10:00"},"push":{"channel":"none"},"device":{"model":"m","os":"o","app_version":"1"}}"#, 422, "validation_failed"),
        ("bad APNs token", #"{"study":"demo","consent":true,"timezone":"Europe/London","settings":{"beeps_per_day":2,"start":"08:00","end":"22:00"},"push":{"channel":"apns","token":"not-hex"},"device":{"model":"m","os":"o","app_version":"1"}}"#, 422, "validation_failed"),
        ("not JSON", "study=demo", 400, "bad_request"),
    ])
    func badRegistration(name: String, body: String, status: Int, code: String) async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (received, answer) = try await RawHTTP.post(server.baseURL, "/api/v1/participants", json: body)
            #expect(received == status, "\(name): \(answer)")
            #expect(answer.contains(#""code":"\#(code)""#), "\(name): \(answer)")
            #expect(try await Participant.query(on: server.db).count() == 0, "\(name) stored a participant")
        }
    }

    @Test("registration answers are validated against the registration survey")
    func registrationAnswersValidated() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            var request = APIFixture.registration()
            request.registrationAnswers = [SubmittedAnswer(questionID: "no_such_question", answer: .string("x"))]
            await #expect(throws: MomentaryClientError.self) { try await server.client().register(request) }
            #expect(try await Participant.query(on: server.db).count() == 0)
        }
    }
}

import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

/// A registration retried after a lost reply makes no second participant (the same key in the
/// body or the Idempotency-Key header answers with the first one and a fresh secret).
@Suite("Participant API: registration retried")
struct RegistrationRetryTests {
    @Test("the same key twice: one participant, its registration answers once, the second secret works and the first is replaced")
    func retriedRegistration() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            var request = APIFixture.registration()
            request.idempotencyKey = "join-7f3a"
            let first = try await server.client().register(request)
            let again = try await server.client().register(request)
            #expect(again.participantID == first.participantID)
            #expect(again.secret != first.secret)
            #expect(try await Participant.query(on: server.db).count() == 1)
            #expect(try await SurveyResponse.query(on: server.db).filter(\.$kind == .registration).count() == 1)

            let newer = server.client(ParticipantCredentials(participantID: again.participantID, secret: again.secret))
            _ = try await newer.status()
            let older = server.client(ParticipantCredentials(participantID: first.participantID, secret: first.secret))
            await #expect(throws: MomentaryClientError.self) { _ = try await older.status() }

            // Once the participant has signed in, the key cannot hand out their credentials again.
            // The sign-in is stored by the response writer just after the reply (`noteSeen`), so
            // on a loaded machine the next request can overtake it: wait for it to be stored.
            let deadline = Date().addingTimeInterval(30)
            while try await Participant.find(again.participantID, on: server.db)?.lastSeenAt == nil, Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try await Participant.find(again.participantID, on: server.db)?.lastSeenAt != nil, "the sign-in is stored")
            do {
                _ = try await server.client().register(request)
                Issue.record("a used registration key gave out credentials again")
            } catch {
                #expect(error.httpStatus == 409, "\(error)")
            }
            #expect(try await Participant.query(on: server.db).count() == 1)

            // Another key is another participant; the client sends one of its own when none is given.
            var other = APIFixture.registration(seed: 2)
            other.idempotencyKey = nil
            let second = try await server.client().register(other)
            #expect(second.participantID != first.participantID)
            #expect(try await Participant.find(second.participantID, on: server.db)?.registrationKey?.isEmpty == false)
        }
    }

    @Test("the key may come as the Idempotency-Key header; a header and a body that disagree are refused")
    func headerKey() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let body = try WireCoding.makeEncoder().encode(APIFixture.registration())
            var ids: [String] = []
            for _ in 0..<2 {
                try await server.app.testing().test(
                    .POST, "api/v1/participants", headers: ["Content-Type": "application/json", "Idempotency-Key": "hdr-1"],
                    body: .init(data: body)
                ) { response in
                    #expect(response.status == .created, "\(response.body.string)")
                    ids.append(try WireCoding.makeDecoder().decode(RegistrationResponse.self, from: Data(response.body.readableBytesView))
                        .participantID.uuidString)
                }
            }
            #expect(ids.count == 2 && ids[0] == ids[1])
            var keyed = APIFixture.registration(seed: 3)
            keyed.idempotencyKey = "body-1"
            try await server.app.testing().test(
                .POST, "api/v1/participants", headers: ["Content-Type": "application/json", "Idempotency-Key": "hdr-2"],
                body: .init(data: try WireCoding.makeEncoder().encode(keyed))
            ) { response in
                #expect(response.status == .badRequest)
            }
            #expect(try await Participant.query(on: server.db).count() == 1)
        }
    }
}

@Suite("Participant API: answers retried after withdrawing")
struct WithdrawnRetryTests {
    @Test("an answer stored before withdrawal gets its receipt when re-sent; a new one is refused")
    func storedAnswerKeepsItsReceipt() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, _) = try await APIFixture.register(on: server)
            let submission = APIFixture.submission(key: "sent-before-leaving")
            let first = try await client.submitResponse(submission)
            try await client.withdraw()
            let again = try await client.submitResponse(submission)
            #expect(again.responseID == first.responseID, "the offline phone's retry learns its answer is stored")
            let status = try await client.status()
            #expect(status.message?.hasPrefix("You have left this study") == true && status.pendingBeep == nil, "\(status.message ?? "")")
            do {
                _ = try await client.submitResponse(APIFixture.submission(key: "after-leaving"))
                Issue.record("a withdrawn participant's new answer was stored")
            } catch {
                #expect(error.httpStatus == 403, "\(error)")
            }
            #expect(try await SurveyResponse.query(on: server.db).filter(\.$kind == .esm).count() == 1)
        }
    }
}
